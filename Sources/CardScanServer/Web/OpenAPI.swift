/// The API's OpenAPI description, served at `/openapi.json` (hand-written; a test checks that
/// every route of the server is in it).
enum OpenAPI {
    static let json = ##"""
{
  "openapi": "3.1.0",
  "info": {"title": "cardscan serve", "version": "1.0.0",
    "description": "The local API behind the review and collection pages. Every write goes through the same collection code as the CLI: `cardscan undo` and the exports see it. Errors are JSON {\"error\": \"...\"} with a 4xx status (400 bad request, 404 unknown id, 409 an item already resolved or nothing to undo)."},
  "servers": [{"url": "http://127.0.0.1:8080"}],
  "components": {
    "schemas": {
      "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}}},
      "Printing": {"type": "object", "properties": {
        "id": {"type": "string", "description": "Scryfall id"}, "name": {"type": "string"}, "set": {"type": "string"}, "set_name": {"type": "string"},
        "collector_number": {"type": "string"}, "lang": {"type": "string"}, "rarity": {"type": "string"}, "year": {"type": "string"},
        "artist": {"type": "string"}, "frame": {"type": "string"}, "border_color": {"type": "string"}, "flavor": {"type": "string"},
        "price_usd": {"type": "string"}, "price_usd_foil": {"type": "string"}, "score": {"type": "number"}}},
      "ReviewItem": {"type": "object", "properties": {
        "id": {"type": "integer"}, "batch_id": {"type": "integer"}, "source_path": {"type": "string"}, "match_status": {"type": "string"},
        "state": {"type": "string", "enum": ["pending", "accepted", "rejected"]}, "read_title": {"type": "string"}, "read_set": {"type": "string"},
        "read_number": {"type": "string"}, "pool": {"type": "string"}, "finish": {"type": "string"}, "condition": {"type": "string"},
        "language": {"type": "string"}, "crop": {"type": "string", "description": "URL of the card's crop, when its place in the photo is known"},
        "candidates": {"type": "array", "items": {"$ref": "#/components/schemas/Printing"}}, "entry_id": {"type": "integer"}}},
      "Entry": {"type": "object", "properties": {
        "id": {"type": "integer"}, "scryfall_id": {"type": "string"}, "name": {"type": "string"}, "set": {"type": "string"},
        "collector_number": {"type": "string"}, "language": {"type": "string"}, "rarity": {"type": "string"}, "quantity": {"type": "integer"},
        "finish": {"type": "string", "enum": ["nonfoil", "foil", "etched"]}, "condition": {"type": "string", "enum": ["M", "NM", "EX", "LP", "MP", "HP", "DMG"]},
        "pool": {"type": "string"}, "origin": {"type": "string", "enum": ["identified", "reviewed", "other"]}, "source_path": {"type": "string"}, "crop": {"type": "string"}}},
      "ImportJob": {"type": "object", "properties": {
        "id": {"type": "integer"}, "state": {"type": "string", "enum": ["running", "done", "failed"]}, "batch": {"type": "integer"},
        "total": {"type": "integer"}, "done": {"type": "integer"}, "added": {"type": "integer"}, "review": {"type": "integer"},
        "failed": {"type": "integer"}, "skipped": {"type": "integer"}, "moved": {"type": "integer"},
        "missing": {"type": "array", "items": {"type": "string"}}, "error": {"type": "string"},
        "recent": {"type": "array", "items": {"type": "object", "properties": {"file": {"type": "string"}, "outcome": {"type": "string"}, "card": {"type": "string"}, "detail": {"type": "string"}}}}}}
    },
    "parameters": {
      "id": {"name": "id", "in": "path", "required": true, "schema": {"type": "integer"}},
      "name": {"name": "name", "in": "query", "schema": {"type": "string"}, "description": "part of the card name"},
      "set": {"name": "set", "in": "query", "schema": {"type": "string"}},
      "pool": {"name": "pool", "in": "query", "schema": {"type": "string"}, "description": "empty = the main collection; absent = everything"},
      "finish": {"name": "finish", "in": "query", "schema": {"type": "string"}},
      "condition": {"name": "condition", "in": "query", "schema": {"type": "string"}},
      "origin": {"name": "origin", "in": "query", "schema": {"type": "string", "enum": ["identified", "reviewed", "other"]}}
    },
    "responses": {
      "Error": {"description": "bad request, unknown id or conflict", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    }
  },
  "paths": {
    "/api/review": {"get": {"summary": "The review queue (pending items; all with state=all)",
      "parameters": [{"name": "state", "in": "query", "schema": {"type": "string", "enum": ["pending", "all"]}}],
      "responses": {"200": {"description": "items", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/ReviewItem"}}}}}}}},
    "/api/review/{id}/accept": {"post": {"summary": "Accept a review item as a printing (its first candidate when none is given)",
      "parameters": [{"$ref": "#/components/parameters/id"}],
      "requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {"printing": {"type": "string", "description": "Scryfall id: a candidate or any printing of the catalog"}}}}}},
      "responses": {"200": {"description": "the entry added", "content": {"application/json": {"schema": {"type": "object"}}}}, "400": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}, "409": {"$ref": "#/components/responses/Error"}}}},
    "/api/review/{id}/reject": {"post": {"summary": "Reject a review item", "parameters": [{"$ref": "#/components/parameters/id"}],
      "responses": {"200": {"description": "rejected"}, "404": {"$ref": "#/components/responses/Error"}, "409": {"$ref": "#/components/responses/Error"}}}},
    "/api/review/bulk": {"post": {"summary": "Accept (each as its first candidate) or reject several items; each on its own",
      "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["ids", "action"], "properties": {
        "ids": {"type": "array", "items": {"type": "integer"}}, "action": {"type": "string", "enum": ["accept", "reject"]}}}}}},
      "responses": {"200": {"description": "one outcome per id", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "properties": {
        "id": {"type": "integer"}, "ok": {"type": "boolean"}, "error": {"type": "string"}, "entry_id": {"type": "integer"}}}}}}}, "400": {"$ref": "#/components/responses/Error"}}}},
    "/api/printings": {"get": {"summary": "Search printings by name (exact, else fuzzy) or by set code and collector number",
      "parameters": [{"name": "q", "in": "query", "required": true, "schema": {"type": "string"}, "example": "m19 125"}],
      "responses": {"200": {"description": "printings", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Printing"}}}}}, "400": {"$ref": "#/components/responses/Error"}}}},
    "/api/entries": {"get": {"summary": "One page of the collection's entries, filtered",
      "parameters": [{"$ref": "#/components/parameters/name"}, {"$ref": "#/components/parameters/set"}, {"$ref": "#/components/parameters/pool"},
        {"$ref": "#/components/parameters/finish"}, {"$ref": "#/components/parameters/condition"}, {"$ref": "#/components/parameters/origin"},
        {"name": "limit", "in": "query", "schema": {"type": "integer", "default": 100, "maximum": 1000}}, {"name": "offset", "in": "query", "schema": {"type": "integer", "default": 0}}],
      "responses": {"200": {"description": "a page", "content": {"application/json": {"schema": {"type": "object", "properties": {
        "total": {"type": "integer"}, "offset": {"type": "integer"}, "entries": {"type": "array", "items": {"$ref": "#/components/schemas/Entry"}}}}}}}, "400": {"$ref": "#/components/responses/Error"}}}},
    "/api/entries/{id}": {
      "patch": {"summary": "Change an entry's printing, quantity, condition, finish, language or pool", "parameters": [{"$ref": "#/components/parameters/id"}],
        "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "properties": {
          "printing": {"type": "string", "description": "Scryfall id"}, "quantity": {"type": "integer", "minimum": 1}, "condition": {"type": "string"},
          "finish": {"type": "string"}, "language": {"type": "string"}, "pool": {"type": "string"}}}}}},
        "responses": {"200": {"description": "the entry as stored", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Entry"}}}}, "400": {"$ref": "#/components/responses/Error"}, "404": {"$ref": "#/components/responses/Error"}}},
      "delete": {"summary": "Delete an entry", "parameters": [{"$ref": "#/components/parameters/id"}],
        "responses": {"200": {"description": "deleted"}, "404": {"$ref": "#/components/responses/Error"}}}},
    "/api/totals": {"get": {"summary": "Cards, entries and USD value (catalog prices) in all, per set and per pool, of the filtered entries",
      "parameters": [{"$ref": "#/components/parameters/name"}, {"$ref": "#/components/parameters/set"}, {"$ref": "#/components/parameters/pool"},
        {"$ref": "#/components/parameters/finish"}, {"$ref": "#/components/parameters/condition"}, {"$ref": "#/components/parameters/origin"}],
      "responses": {"200": {"description": "totals", "content": {"application/json": {"schema": {"type": "object", "properties": {
        "cards": {"type": "integer"}, "entries": {"type": "integer"}, "value_usd": {"type": "number"}, "unpriced_cards": {"type": "integer"}, "price_date": {"type": "string"},
        "by_set": {"type": "array", "items": {"type": "object"}}, "by_pool": {"type": "array", "items": {"type": "object"}}}}}}}}}},
    "/api/crops/{kind}/{id}": {"get": {"summary": "The card cut out of its photo (JPEG, cached)",
      "parameters": [{"name": "kind", "in": "path", "required": true, "schema": {"type": "string", "enum": ["review", "entry"]}}, {"$ref": "#/components/parameters/id"}],
      "responses": {"200": {"description": "JPEG", "content": {"image/jpeg": {}}}, "404": {"$ref": "#/components/responses/Error"}}}},
    "/api/imports": {"post": {"summary": "Import photos (files or folders on this computer) as one batch, in the background",
      "requestBody": {"required": true, "content": {"application/json": {"schema": {"type": "object", "required": ["paths"], "properties": {
        "paths": {"type": "array", "items": {"type": "string"}}, "recursive": {"type": "boolean", "default": true}, "pool": {"type": "string"},
        "finish": {"type": "string"}, "condition": {"type": "string"}, "language": {"type": "string"}}}}}},
      "responses": {"202": {"description": "started", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ImportJob"}}}}, "400": {"$ref": "#/components/responses/Error"}}}},
    "/api/imports/{id}": {"get": {"summary": "An import's progress", "parameters": [{"$ref": "#/components/parameters/id"}],
      "responses": {"200": {"description": "progress", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ImportJob"}}}}, "404": {"$ref": "#/components/responses/Error"}}}},
    "/api/uploads": {"post": {"summary": "Upload one photo (the body is its bytes); it is kept under the data folder and its path returned for /api/imports",
      "parameters": [{"name": "name", "in": "query", "schema": {"type": "string"}, "description": "the file's name (its extension says the format)"}],
      "requestBody": {"required": true, "content": {"application/octet-stream": {}}},
      "responses": {"201": {"description": "stored", "content": {"application/json": {"schema": {"type": "object", "properties": {"path": {"type": "string"}, "name": {"type": "string"}}}}}}, "415": {"$ref": "#/components/responses/Error"}}}},
    "/api/export": {"get": {"summary": "The collection as another app's file (what `cardscan collection export` writes)",
      "parameters": [{"name": "format", "in": "query", "schema": {"type": "string", "default": "moxfield", "enum": ["moxfield", "manabox", "deckbox", "archidekt", "dragonshield", "sorted", "tcgplayer", "delverlens", "arena", "json"]}},
        {"name": "pool", "in": "query", "schema": {"type": "string", "default": ""}}],
      "responses": {"200": {"description": "the file", "content": {"text/csv": {}, "application/json": {}}}, "400": {"$ref": "#/components/responses/Error"}}}},
    "/api/undo": {"post": {"summary": "Revert the last import batch (what `cardscan undo` does)",
      "responses": {"200": {"description": "what was removed", "content": {"application/json": {"schema": {"type": "object"}}}}, "409": {"$ref": "#/components/responses/Error"}}}},
    "/api/pools": {"get": {"summary": "The pools with their cards and entries",
      "responses": {"200": {"description": "pools", "content": {"application/json": {"schema": {"type": "array", "items": {"type": "object", "properties": {
        "name": {"type": "string"}, "cards": {"type": "integer"}, "entries": {"type": "integer"}}}}}}}}}}
  }
}
"""##
}

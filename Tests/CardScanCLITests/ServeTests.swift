import Foundation
import TestSupport
import Testing

@testable import CardScanServer

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A real `cardscan serve` on a random loopback port, over a collection in a temporary home and
/// the built-in sample catalog (made from Fixtures/catalog).
final class ServeProcess: @unchecked Sendable {
    let process: Process
    let base: URL
    let home: URL

    /// Starts the server and waits for the address it prints.
    init(home: URL, extra: [String] = []) throws {
        self.home = home
        process = CLI.process(["serve", "--port", "0", "--jobs", "1"] + extra, home: home)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        try process.run()
        let address = LockedData()
        CLI.readLines(out, line: { line in
            if let r = line.range(of: "http://") { address.set(Data(line[r.lowerBound...].split(separator: " ")[0].utf8)) }
        })
        let deadline = Date().addingTimeInterval(60)
        while address.get().isEmpty, process.isRunning, Date() < deadline { usleep(20_000) }
        guard let url = URL(string: String(decoding: address.get(), as: UTF8.self)), !address.get().isEmpty else {
            process.terminate()
            throw ServeError("cardscan serve printed no address (running: \(process.isRunning))")
        }
        base = url
    }

    func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
    }

    func kill() {
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// One request; the status and the body (JSON decoded when it is JSON).
    @discardableResult
    func request(_ method: String, _ path: String, json: Any? = nil, body: Data? = nil,
                 headers: [String: String] = [:]) async throws -> (status: Int, json: Any?, data: Data) {
        var r = URLRequest(url: URL(string: path, relativeTo: base)!)
        r.httpMethod = method
        for (k, v) in headers { r.setValue(v, forHTTPHeaderField: k) }
        if let json {
            r.httpBody = try JSONSerialization.data(withJSONObject: json)
            r.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let body {
            r.httpBody = body
        }
        let (data, response) = try await URLSession.shared.data(for: r)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let type = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? ""
        return (status, type.contains("json") ? try? JSONSerialization.jsonObject(with: data) : nil, data)
    }

    /// Waits for import `id` to finish; its last progress report.
    func waitForImport(_ id: Int) async throws -> [String: Any] {
        for _ in 0..<1200 {
            let job = try await request("GET", "/api/imports/\(id)").json as? [String: Any] ?? [:]
            if job["state"] as? String != "running" { return job }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        throw ServeError("import \(id) did not finish in 2 minutes")
    }
}

struct ServeError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

@Suite("cardscan serve: the JSON API on a real loopback server", .serialized)
struct ServeTests {
    @Test("every route of the server is in the OpenAPI description, and the description names no other")
    func openAPIMatchesRoutes() throws {
        let spec = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPI.json.utf8)) as? [String: Any])
        let paths = try #require(spec["paths"] as? [String: [String: Any]])
        let documented = Set(paths.flatMap { path, methods in methods.keys.map { "\($0.uppercased()) \(path)" } })
        let served = Set(CardScanServer.routes.map { "\($0.method) \($0.path)" })
        #expect(documented == served, "only documented: \(documented.subtracting(served)); only served: \(served.subtracting(documented))")
    }

    @Test("import the fixture photos, review them, edit an entry: the CLI's review list, export and undo see every change")
    func importReviewEdit() async throws {
        let dir = CollectionCLI.temp("serve")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = try CollectionCLI.photoFolder(dir)
        let home = dir.appendingPathComponent("home")
        let server = try ServeProcess(home: home)
        defer { server.stop() }
        #expect(server.base.host == "127.0.0.1")

        // Every route answers (none is missing from the router: that 404 says "no such route").
        for route in CardScanServer.routes {
            let path = route.path.replacingOccurrences(of: "{id}", with: "999").replacingOccurrences(of: "{kind}", with: "entry")
            let r = try await server.request(route.method, path, json: route.method == "GET" || route.method == "DELETE" ? nil : [String: Any]())
            let error = (r.json as? [String: Any])?["error"] as? String ?? ""
            #expect(!error.hasPrefix("no such route"), "\(route.method) \(route.path): \(error)")
        }
        let unknown = try await server.request("GET", "/api/nothing")
        #expect(unknown.status == 404 && ((unknown.json as? [String: Any])?["error"] as? String)?.hasPrefix("no such route") == true)
        let page = try await server.request("GET", "/")
        #expect(page.status == 200 && String(decoding: page.data, as: UTF8.self).contains("id=\"review-list\""))

        // Import through the page's API: the same outcome as `cardscan import` of this folder.
        let started = try await server.request("POST", "/api/imports", json: ["paths": [photos.path]])
        #expect(started.status == 202)
        let id = try #require((started.json as? [String: Any])?["id"] as? Int)
        let job = try await server.waitForImport(id)
        #expect(job["state"] as? String == "done" && job["added"] as? Int == 5 && job["review"] as? Int == 3 && job["failed"] as? Int == 1,
                "\(job)")
        #expect(job["done"] as? Int == 9 && job["total"] as? Int == 9)

        // The queue: three items, each with its crop and candidates told apart by set and year.
        let queue = try #require(try await server.request("GET", "/api/review").json as? [[String: Any]])
        #expect(queue.count == 3)
        let first = try #require(queue.first)
        let candidates = try #require(first["candidates"] as? [[String: Any]])
        #expect(candidates.count >= 2 && candidates.allSatisfy { $0["set"] is String && $0["year"] is String }, "\(candidates)")
        let cropURL = try #require(first["crop"] as? String)
        let crop = try await server.request("GET", cropURL)
        #expect(crop.status == 200 && crop.data.starts(with: [0xFF, 0xD8]), "\(crop.status)")
        let cached = try FileManager.default.contentsOfDirectory(atPath: home.appendingPathComponent("crops").path)
        #expect(cached.count == 1)

        // Search another printing by name (exact or fuzzy) or by set and number.
        let byName = try #require(try await server.request("GET", "/api/printings?q=counterspel").json as? [[String: Any]])
        #expect(byName.first?["name"] as? String == "Counterspell" && byName.filter { $0["name"] as? String == "Counterspell" }.count >= 4, "\(byName)")
        let bySet = try #require(try await server.request("GET", "/api/printings?q=lea%20%2354").json as? [[String: Any]])
        #expect(bySet.count == 1 && bySet.first?["set"] as? String == "lea" && bySet.first?["collector_number"] as? String == "54", "\(bySet)")
        #expect(try await server.request("GET", "/api/printings?q=").status == 400)

        // Accept the first as its second candidate, reject the other two together.
        let ids = queue.compactMap { $0["id"] as? Int }
        let second = try #require(candidates[1]["id"] as? String)
        let accepted = try await server.request("POST", "/api/review/\(ids[0])/accept", json: ["printing": second])
        #expect(accepted.status == 200)
        let again = try await server.request("POST", "/api/review/\(ids[0])/accept", json: [String: Any]())
        #expect(again.status == 409 && ((again.json as? [String: Any])?["error"] as? String)?.contains("already accepted") == true)
        let bulk = try #require(try await server.request("POST", "/api/review/bulk", json: ["ids": Array(ids[1...]), "action": "reject"]).json as? [[String: Any]])
        #expect(bulk.allSatisfy { $0["ok"] as? Bool == true })
        let cliReview = try CLI.run(["review", "list", "--all", "--json"], home: home)
        let states = ((try JSONSerialization.jsonObject(with: Data(cliReview.out.utf8)) as? [[String: Any]]) ?? []).compactMap { $0["state"] as? String }
        #expect(states.sorted() == ["accepted", "rejected", "rejected"], "\(cliReview.out)")

        // Edit an entry; the CLI's export sees it.
        let page1 = try #require(try await server.request("GET", "/api/entries?name=tyrant").json as? [String: Any])
        let entry = try #require((page1["entries"] as? [[String: Any]])?.first)
        let entryID = try #require(entry["id"] as? Int)
        #expect(entry["origin"] as? String == "identified" && entry["crop"] is String)
        let edited = try await server.request("PATCH", "/api/entries/\(entryID)", json: ["quantity": 3, "condition": "LP", "finish": "foil"])
        #expect(edited.status == 200, "\(String(decoding: edited.data, as: UTF8.self))")
        let export = try CLI.run(["collection", "export", "--format", "moxfield"], home: home)
        #expect(export.out.contains("\"3\",\"0\",\"Carnage Tyrant\"") || export.out.contains("3,0,Carnage Tyrant"), "\(export.out)")
        #expect(export.out.contains("Lightly Played") || export.out.contains("LP"), "\(export.out)")
        let apiExport = try await server.request("GET", "/api/export?format=moxfield")
        #expect(String(decoding: apiExport.data, as: UTF8.self) == export.out)

        // Totals: 5 identified + 1 accepted, the tyrant counted 3 times.
        let totals = try #require(try await server.request("GET", "/api/totals").json as? [String: Any])
        #expect(totals["cards"] as? Int == 8 && totals["entries"] as? Int == 6, "\(totals)")
        let reviewed = try #require(try await server.request("GET", "/api/entries?origin=reviewed").json as? [String: Any])
        #expect(reviewed["total"] as? Int == 1)

        // Bad requests: JSON errors with a 4xx status.
        for (method, path, body, status) in [("PATCH", "/api/entries/\(entryID)", ["quantity": 0], 400),
                                             ("PATCH", "/api/entries/\(entryID)", ["condition": "shiny"], 400),
                                             ("PATCH", "/api/entries/999999", ["quantity": 2], 404),
                                             ("POST", "/api/review/bulk", ["ids": [1], "action": "maybe"], 400),
                                             ("POST", "/api/imports", ["paths": [dir.appendingPathComponent("none").path]], 400)] as [(String, String, [String: Any], Int)] {
            let r = try await server.request(method, path, json: body)
            #expect(r.status == status && (r.json as? [String: Any])?["error"] is String, "\(method) \(path): \(r.status)")
        }
        // Another site's page cannot make the browser change the collection, nor reach it by a rebound name.
        let foreign = try await server.request("POST", "/api/undo", headers: ["Origin": "http://example.com"])
        #expect(foreign.status == 403 && (foreign.json as? [String: Any])?["error"] is String)
        let rebound = try await server.request("GET", "/api/review", headers: ["Host": "attacker.example:\(server.base.port ?? 0)"])
        #expect(rebound.status == 403)
        let sameOrigin = try await server.request("GET", "/api/pools", headers: ["Origin": "http://127.0.0.1:\(server.base.port ?? 0)"])
        #expect(sameOrigin.status == 200)
        let notJSON = try await server.request("POST", "/api/review/bulk", body: Data("{".utf8))
        #expect(notJSON.status == 400 && (notJSON.json as? [String: Any])?["error"] is String)

        // Another printing chosen for an entry.
        let lea = try #require(bySet.first?["id"] as? String)
        let moved = try await server.request("PATCH", "/api/entries/\(entryID)", json: ["printing": lea])
        #expect((moved.json as? [String: Any])?["set"] as? String == "lea" && (moved.json as? [String: Any])?["quantity"] as? Int == 3)
        #expect((try await server.request("GET", "/api/entries?set=lea").json as? [String: Any])?["total"] as? Int == 1)

        // `cardscan undo` reverts the page's import, its accepted item with it.
        let undo = try CLI.run(["undo"], home: home)
        #expect(undo.status == 0, "\(undo.err)")
        let after = try #require(try await server.request("GET", "/api/totals").json as? [String: Any])
        #expect(after["cards"] as? Int == 0, "\(after)")
    }

    @Test("an import from the page and a CLI import into the same collection at the same time lose nothing")
    func importBesideCLI() async throws {
        let dir = CollectionCLI.temp("serve-beside")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = try CollectionCLI.photoFolder(dir)
        let (pageHalf, cliHalf) = (dir.appendingPathComponent("page"), dir.appendingPathComponent("cli"))
        for (i, name) in try FileManager.default.contentsOfDirectory(atPath: photos.path).sorted().enumerated() {
            let to = (i % 2 == 0 ? pageHalf : cliHalf)
            try FileManager.default.createDirectory(at: to, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: photos.appendingPathComponent(name), to: to.appendingPathComponent(name))
        }
        let home = dir.appendingPathComponent("home")
        let server = try ServeProcess(home: home)
        defer { server.stop() }
        let started = try await server.request("POST", "/api/imports", json: ["paths": [pageHalf.path]])
        let cli = try CLI.run(["import", cliHalf.path, "--json"], home: home)
        let job = try await server.waitForImport(try #require((started.json as? [String: Any])?["id"] as? Int))
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(cli.out.utf8)) as? [String: Any])
        let added = (job["added"] as? Int ?? 0) + (summary["added"] as? Int ?? 0)
        let review = (job["review"] as? Int ?? 0) + (summary["review"] as? Int ?? 0)
        #expect(added == 5 && review == 3, "page \(job); cli \(summary)")
        let totals = try #require(try await server.request("GET", "/api/totals").json as? [String: Any])
        #expect(totals["cards"] as? Int == 5)
        #expect((try await server.request("GET", "/api/review").json as? [[String: Any]])?.count == 3)
    }

    @Test("an upload is kept under the data folder by content and imported from there")
    func upload() async throws {
        let dir = CollectionCLI.temp("serve-upload")
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = try ServeProcess(home: dir.appendingPathComponent("home"))
        defer { server.stop() }
        let bytes = try Data(contentsOf: CLI.root.appendingPathComponent("Fixtures/synthetic/carnage_tyrant_flat.png"))
        let up = try await server.request("POST", "/api/uploads?name=tyrant.png", body: bytes)
        #expect(up.status == 201)
        let path = try #require((up.json as? [String: Any])?["path"] as? String)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        let refused = try await server.request("POST", "/api/uploads?name=notes.txt", body: Data("x".utf8))
        #expect(refused.status == 415)
        let started = try await server.request("POST", "/api/imports", json: ["paths": [path]])
        let job = try await server.waitForImport(try #require((started.json as? [String: Any])?["id"] as? Int))
        #expect(job["added"] as? Int == 1, "\(job)")
    }

    @Test("killing the server while edits are being written leaves the collection consistent, and a new server serves it")
    func killDuringEdits() async throws {
        let dir = CollectionCLI.temp("serve-kill")
        defer { try? FileManager.default.removeItem(at: dir) }
        let photos = try CollectionCLI.photoFolder(dir)
        let home = dir.appendingPathComponent("home")
        let imported = try CLI.run(["import", photos.path], home: home)
        #expect(imported.status == 1) // the one broken file
        let server = try ServeProcess(home: home)
        let entries = try #require(try await server.request("GET", "/api/entries").json as? [String: Any])
        let ids = ((entries["entries"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? Int }
        #expect(ids.count == 5)
        // Edits fired without waiting; the server is killed while they are in flight.
        let editing = Task {
            for n in 1...400 {
                _ = try? await server.request("PATCH", "/api/entries/\(ids[n % ids.count])", json: ["quantity": n % 7 + 1, "condition": n % 2 == 0 ? "LP" : "NM"])
            }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        server.kill()
        _ = await editing.result
        // The CLI still reads the collection (its list sums entries that the edits left alike:
        // the two copies of one card in the same condition are one line there).
        let json = try CLI.run(["collection", "list", "--json"], home: home)
        #expect(json.status == 0, "\(json.err)")
        // Every entry is whole: each quantity one that was written.
        let again = try ServeProcess(home: home)
        defer { again.stop() }
        let after = try #require(try await again.request("GET", "/api/entries").json as? [String: Any])
        let rows = (after["entries"] as? [[String: Any]]) ?? []
        #expect(rows.count == 5 && rows.allSatisfy { (1...7).contains($0["quantity"] as? Int ?? 0) }, "\(rows)")
        let totals = try #require(try await again.request("GET", "/api/totals").json as? [String: Any])
        #expect(totals["entries"] as? Int == 5)
        let check = try CLI.run(["undo"], home: home)
        #expect(check.status == 0, "\(check.err)")
    }
}

import CardScanCLI

// The whole CLI lives in the CardScanCLI library; this target only starts it.
await CardScanCommand.run()

// CardMatcher: see Package.swift for this module's concern.

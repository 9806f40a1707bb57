"""Security that is not a role: atomic counters, login protection, rate limits, the client address
behind trusted proxies, masking of secrets in what is read back, and browser-facing policies."""

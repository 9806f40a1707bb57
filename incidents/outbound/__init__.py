"""Outbound calls: which addresses the platform may reach (`guard`) and the one HTTP client that
applies that guard to every address it connects to (`client`)."""

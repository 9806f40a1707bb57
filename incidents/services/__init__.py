"""Writes: every change to the domain goes through a function here."""

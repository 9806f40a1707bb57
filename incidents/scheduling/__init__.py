"""Periodic jobs on several nodes: one scheduler at a time under a lease, each job slot run once."""

"""Forms, one module per area. They validate input and keep what was typed; services do the writes.

`base` holds what the editor's forms share; `subscriptions` serves the public subscribe pages and
the JSON API alike.
"""

"""The incident lifecycle: one command per thing a responder means, each a typed value that the
editor's forms and the API's serializers build, run in one transaction that owns its whole
composition (commands.py lists them)."""

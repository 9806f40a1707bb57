"""Notification channels, one module each, the registry the outbox sends through (`registry`)
and the module that builds every e-mail the platform sends (`emails`).

A channel has `send(deliveries)`, which yields a `Result` per delivery as soon as it is known
(or a list of them for messages sent together, which the outbox marks at once: a list of one
has its message marked before the next goes out), and `batch_size_setting`, the setting naming
how many rows a worker claims for it at once.
"""

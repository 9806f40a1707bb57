"""The on-call editor: server-rendered pages for staff, one module per area.

Every view is wrapped by a decorator from `access`, which applies `incidents.roles` (the same
checks as the API) and shows times in the status page's zone.
"""

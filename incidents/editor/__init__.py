"""What the editor's screens show, built for its templates: the status board and the audit
trail in words (the public pages have incidents.public)."""

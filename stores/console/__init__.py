"""The console's pages for escalation contacts and console admins (server-rendered, no JavaScript)."""

"""Clubs, memberships, club chips and sessions (issue #5)."""

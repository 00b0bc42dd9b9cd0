"""Tables, seats and hands (issue #4)."""

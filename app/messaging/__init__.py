"""Messaging: the provider client, the outbox, message texts and signed one-tap links.

Used by the training family (flag notifications) and the reminders job; it serves no routes.
"""

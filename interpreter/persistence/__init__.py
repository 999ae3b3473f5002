"""Saves and replay logs: written, read back and checked."""

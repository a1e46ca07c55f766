"""Helpers shared by the tests: real servers, a real Celery worker, real Chromium."""

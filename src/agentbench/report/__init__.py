"""Rendering results: pure functions from records to text or rich renderables, one module per format."""

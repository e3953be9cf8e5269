"""csv_summary: summarise the columns of a CSV file."""

from csv_summary.summary import summarize

__all__ = ["summarize"]

"""Exceptions raised by the library API."""


class LibraryError(Exception):
    """Base class of every error the library raises on purpose."""


class ValidationError(LibraryError):
    """An argument is invalid (empty text, bad amount, ...)."""


class InvalidISBNError(ValidationError):
    """A string is not a valid ISBN-13."""


class NotFoundError(LibraryError):
    """A book, copy, member, loan or reservation does not exist."""


class DuplicateError(LibraryError):
    """A book with this ISBN already exists."""


class UnavailableError(LibraryError):
    """The copy is on loan or set aside for members earlier in the reservation queue."""


class LoanLimitError(LibraryError):
    """The member already has the maximum number of active loans."""


class FinesOwedError(LibraryError):
    """The member owes fines and may not borrow."""


class LoanError(LibraryError):
    """The operation needs an active loan (copy not on loan, loan already returned)."""


class RenewalError(LibraryError):
    """The loan may not be renewed (limit reached, overdue, or the book is reserved)."""


class ReservationError(LibraryError):
    """The reservation is not allowed."""

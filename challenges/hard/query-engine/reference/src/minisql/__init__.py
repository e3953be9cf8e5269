"""minisql: a small SQL query engine over in-memory tables."""

from .database import Database, Result
from .errors import MiniSQLError, QueryError, SQLSyntaxError

__all__ = ["Database", "MiniSQLError", "QueryError", "Result", "SQLSyntaxError"]
__version__ = "1.0.0"

"""tRPC's error codes and the one error type of the protocol layer.

An error keeps the HTTP status the REST endpoint answered and its RFC 9457 problem
document; the tRPC code (name and JSON-RPC number) follows from the status, as in tRPC.
"""

from dataclasses import dataclass, field

from core.problems import problem

# tRPC's names and numbers (@trpc/server, error/codes.ts) by HTTP status.
CODES_BY_STATUS = {
    400: ("BAD_REQUEST", -32600),
    401: ("UNAUTHORIZED", -32001),
    402: ("PAYMENT_REQUIRED", -32002),
    403: ("FORBIDDEN", -32003),
    404: ("NOT_FOUND", -32004),
    405: ("METHOD_NOT_SUPPORTED", -32005),
    408: ("TIMEOUT", -32008),
    409: ("CONFLICT", -32009),
    412: ("PRECONDITION_FAILED", -32012),
    413: ("PAYLOAD_TOO_LARGE", -32013),
    415: ("UNSUPPORTED_MEDIA_TYPE", -32015),
    422: ("UNPROCESSABLE_CONTENT", -32022),
    428: ("PRECONDITION_REQUIRED", -32028),
    429: ("TOO_MANY_REQUESTS", -32029),
    499: ("CLIENT_CLOSED_REQUEST", -32099),
    500: ("INTERNAL_SERVER_ERROR", -32603),
    501: ("NOT_IMPLEMENTED", -32603),
    502: ("BAD_GATEWAY", -32603),
    503: ("SERVICE_UNAVAILABLE", -32603),
    504: ("GATEWAY_TIMEOUT", -32603),
}
PARSE_ERROR = ("PARSE_ERROR", -32700)  # a 400 whose input is not JSON
# Headers of an error that a client needs (the REST answer's, or the gate's).
KEPT_HEADERS = ("WWW-Authenticate", "Retry-After", "Allow")


@dataclass
class RpcError(Exception):
    status: int
    message: str
    problem: dict | None = None  # the REST endpoint's problem document, when it answered
    headers: dict = field(default_factory=dict)
    parse_error: bool = False

    def __post_init__(self):
        super().__init__(self.message)
        if self.problem is None:
            self.problem = problem(self.status, code="parse_error" if self.parse_error else None,
                                   detail=self.message)

    @property
    def code(self) -> tuple[str, int]:
        """(name, number): tRPC's, by status; an unknown 4xx is a BAD_REQUEST."""
        if self.parse_error:
            return PARSE_ERROR
        fallback = CODES_BY_STATUS[400 if self.status < 500 else 500]
        return CODES_BY_STATUS.get(self.status, fallback)

    def shape(self, path: str | None) -> dict:
        """tRPC's error shape: {message, code, data: {code, httpStatus, path}}, with the
        problem document beside them (its `code` and `errors` are stable, for programs)."""
        name, number = self.code
        data = {"code": name, "httpStatus": self.status}
        if path is not None:
            data["path"] = path
        data["problem"] = self.problem
        return {"message": self.message, "code": number, "data": data}

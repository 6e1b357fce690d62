"""The names a client generator builds on: tags, operation ids and summaries, derived from
the URL and the view's action, so that a new endpoint is named like its neighbours without a
list to keep up to date (docs/decisions.md, "Generated clients").

- Tag: the area of the URL: `admin` under /v1/admin, else its first segment after the
  version (`/chains` -> chains, `/v1/webhooks` -> webhooks), renamed where the area has a
  better name than its path (`AREA_TAGS`).
- Operation id: camelCase verb + noun. The verb is the action's (`list`, `get`, `create`,
  `update`, `delete`, or a custom action's name: `validate`); the noun is the model's
  `verbose_name` (`verbose_name_plural` for a list: `listRpcEndpoints`), or the URL's last
  segment for a view without a model. Admin operations start with `admin`
  (`adminListChains`) so that they never meet the public ones (`listChains`). A custom action
  whose name is already a verb and a noun keeps it (`claim_job` -> `claimJob`). Where the
  rule reads badly the view says `extend_schema(operation_id=...)` (`verify`).
- Summary: the same words as a phrase ("List RPC endpoints").
"""

import re
from dataclasses import dataclass

# A URL's first segment -> its tag, where the area is better known by another name.
AREA_TAGS = {"chain-registry": "executors", "verify": "verification",
             # EAS's other events, read by the same indexer: the attestations' area.
             "timestamps": "attestations", "offchain-revocations": "attestations",
             "watches": "webhooks"}
ADMIN = "admin"
VERBS = {"list": "list", "retrieve": "get", "create": "create", "update": "replace",
         "partial_update": "update", "destroy": "delete"}
_VERSION = re.compile(r"v\d+")
_WORD = re.compile(r"[A-Za-z0-9]+")


@dataclass(frozen=True)
class Names:
    operation_id: str
    summary: str


def literal_segments(path: str) -> list[str]:
    """The segments of a path template that are not parameters, without the version."""
    segments = [s for s in path.strip("/").split("/") if s and not s.startswith("{")]
    return segments[1:] if segments and _VERSION.fullmatch(segments[0]) else segments


def tag(path: str) -> str:
    segments = literal_segments(path)
    if not segments:
        return "root"
    return AREA_TAGS.get(segments[0], segments[0])


def camel(*phrases: str) -> str:
    """`camel("list", "RPC endpoints")` -> listRpcEndpoints."""
    words = [w.lower() for phrase in phrases for w in _WORD.findall(phrase.replace("_", " "))]
    return words[0] + "".join(w.capitalize() for w in words[1:]) if words else ""


def humanize(operation_id: str) -> str:
    """`verifyBatch` -> "Verify batch": the summary of an id given by hand."""
    words = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", operation_id)
    phrase = " ".join(words).lower()
    return phrase[:1].upper() + phrase[1:]


def names(*, path: str, action: str, model, many: bool) -> Names:
    """The operation id and summary of the operation `action` at `path` (a template such as
    /v1/admin/chains/{chain_id}) on `model` (None for a view without one)."""
    verb = VERBS.get(action, action)
    segments = literal_segments(path)
    admin = bool(segments) and segments[0] == ADMIN
    if model is not None:
        meta = model._meta
        noun = str(meta.verbose_name_plural if many else meta.verbose_name)
    else:
        noun = (segments or ["root"])[-1].replace("-", " ")
    if action not in VERBS and "_" in action:
        verb, noun = action, ""  # claim_job: already a verb and its noun
    phrase = " ".join(word for word in (verb.replace("_", " "), noun) if word)
    return Names(
        operation_id=camel(ADMIN if admin else "", verb, noun),
        summary=phrase[:1].upper() + phrase[1:],
    )

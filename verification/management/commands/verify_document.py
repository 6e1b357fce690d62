import dataclasses
import json
import re
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.document_hash import ALGORITHMS, accepted_algorithms, hash_stream
from core.errors import ServiceUnavailable
from core.validators import BYTES32_PATTERN, normalize_bytes32
from registry.models import Chain
from verification.services import verify_document

DOCUMENT_HASH = re.compile(BYTES32_PATTERN)
# The answer's fields in the order they are printed, with their labels; any other field the
# answer carries (a reason, evidence) follows under its own name.
LABELS = {"attestation_id": "attestation", "chain_id": "chain", "attester": "attester",
          "timestamp": "time", "tx_hash": "tx", "block_number": "block",
          "confirmations": "confirmations", "schema_id": "schema",
          # The evidence to re-check it on the chain (docs/verify-yourself.md).
          "block_hash": "block hash", "log_index": "log index", "eas_address": "eas",
          "get_attestation_call": "eth_call",
          # How it was bound: an offchain attestation (whether the chain proves its time), or
          # a Merkle batch's root and the document's proof to it.
          "offchain": "offchain", "timestamp_proven": "time proven",
          "merkle_root": "merkle root", "proof": "merkle proof",
          # What "final" meant on the chain (attestations/finality.py).
          "finality_rule": "finality", "finalized_block": "final block",
          # Who stands behind the attester, and whether its domain proves it (issuers/).
          "issuer": "issuer"}
WIDTH = 13  # of the label column: "confirmations"; a longer label still gets a space
USAGE = 2  # exit status of a usage error; 0 verified, 1 not verified
UNAVAILABLE = 3  # --live and a chain did not answer: no verdict


class Command(BaseCommand):
    help = ("Verify a document as POST /v1/verify does: a file is hashed with each accepted "
            "algorithm (DOCUMENT_HASH_ALGORITHMS, the default first), a 0x hash is taken as is. "
            "Prints the verdict and the answer per hash. Exit status 0 when verified, 1 when "
            "not, 2 on a usage error, 3 when --live could not reach a chain.")

    def add_arguments(self, parser):
        parser.add_argument("target", metavar="PATH_OR_HASH",
                            help="A file, or its document hash (0x + 64 hex digits).")
        parser.add_argument("--live", action="store_true",
                            help="Re-read the attestation from its chain before answering.")
        parser.add_argument("--chain", help="Only look on this chain (chain id or short name).")
        parser.add_argument("--algorithm", action="append", choices=ALGORITHMS,
                            help="Hash the file with this algorithm only (repeatable); by "
                            "default with each accepted one.")

    def handle(self, *args, target, live=False, chain=None, algorithm=None, **options):
        chain_id = self._chain_id(chain)
        hashes = self._hashes(target, algorithm)
        verified = False
        for name, document_hash in hashes:
            try:
                result = verify_document(document_hash, chain_id=chain_id, live=live)
            except ServiceUnavailable as exc:
                raise CommandError(str(exc), returncode=UNAVAILABLE) from None
            self._print(name, document_hash, result)
            verified = verified or result.verified
        if not verified:
            sys.exit(1)

    def _chain_id(self, ref: str | None) -> int | None:
        if ref is None:
            return None
        try:
            return Chain.objects.by_ref(ref).chain_id
        except Chain.DoesNotExist:
            raise CommandError(f"No chain {ref!r} is registered.", returncode=USAGE) from None

    def _hashes(self, target: str, algorithms: list[str] | None) -> list[tuple[str | None, str]]:
        """(algorithm, hash) pairs to verify: the hash given, or the file's hashes."""
        if DOCUMENT_HASH.fullmatch(target):
            if algorithms:
                raise CommandError("--algorithm applies to a file, not to a hash.",
                                   returncode=USAGE)
            return [(None, normalize_bytes32(target))]
        path = Path(target)
        if not path.is_file():
            if target[:2].lower() == "0x":
                raise CommandError(f"{target!r} is not a document hash (0x + 64 hex digits) "
                                   "nor a file.", returncode=USAGE)
            raise CommandError(f"No such file: {target}", returncode=USAGE)
        accepted = accepted_algorithms()
        refused = [name for name in algorithms or () if name not in accepted]
        if refused:
            raise CommandError(f"{', '.join(refused)} is not accepted here "
                               f"(DOCUMENT_HASH_ALGORITHMS: {', '.join(accepted)}).",
                               returncode=USAGE)
        chosen = [name for name in accepted if name in algorithms] if algorithms else accepted
        try:
            with path.open("rb") as stream:
                return list(hash_stream(stream, chosen).items())
        except OSError as exc:
            raise CommandError(f"Cannot read {target}: {exc}", returncode=USAGE) from None

    def _print(self, algorithm: str | None, document_hash: str, result) -> None:
        verdict = "verified" if result.verified else "not verified"
        prefix = f"{algorithm} " if algorithm else ""
        self.stdout.write(f"{prefix}{document_hash}: {verdict}")
        fields = {**(dataclasses.asdict(result) if dataclasses.is_dataclass(result) else {}),
                  **{name: getattr(result, name, None) for name in LABELS}}
        fields.pop("verified", None)
        if not fields.get("chain_stalled"):
            fields.pop("chain_stalled", None)  # said only when it is
        reason = fields.pop("reason", getattr(result, "reason", None))
        lines = [(label, fields.pop(name, None)) for name, label in LABELS.items()]
        lines.append(("reason", reason))
        lines += [(name.replace("_", " "), value) for name, value in sorted(fields.items())]
        for label, value in lines:
            if value is None:
                continue
            if label == "chain":
                value = self._chain_label(value)
            elif label == "issuer":
                value = _issuer_label(value)
            elif isinstance(value, bool):
                value = "yes" if value else "no"
            elif hasattr(value, "isoformat"):
                value = value.isoformat()
            elif isinstance(value, dict | list):
                value = json.dumps(value)
            self.stdout.write(f"  {label:<{WIDTH}} {value}")

    @staticmethod
    def _chain_label(chain_id: int) -> str:
        name = Chain.objects.filter(pk=chain_id).values_list("name", flat=True).first()
        return f"{chain_id} ({name})" if name else str(chain_id)


def _issuer_label(issuer) -> str:
    """`Example University (example.edu), identity proven: dns checked <time>`."""
    proofs = ", ".join(f"{p['method']} checked {p['checked_at'].isoformat()}"
                       for p in issuer.proofs)
    return (f"{issuer.name} ({issuer.domain}), identity {issuer.identity}"
            + (f": {proofs}" if proofs else ""))

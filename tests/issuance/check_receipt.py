"""Check a receipt of the issuer pages from outside the service, as a recipient or an
auditor would: every document verifies through POST /v1/verify (with an api key), and each
Merkle proof leads to its root by eas_primitives.merkle alone. Prints one line per failure
and a summary; exits 0 when every line verifies.

    python -m tests.issuance.check_receipt SERVICE_URL API_KEY receipt.json
"""

import json
import sys

import requests

from eas_primitives.merkle import proves


def problems(service_url: str, api_key: str, receipt: dict) -> list[str]:
    session = requests.Session()
    session.headers["X-API-Key"] = api_key
    found = []
    for entry in receipt["documents"]:
        name = entry["fileName"]
        answer = session.post(f"{service_url}/v1/verify",
                              json={"documentHash": entry["documentHash"]}, timeout=30).json()
        if not answer.get("verified"):
            found.append(f"{name}: not verified ({answer.get('reason')})")
        elif answer["attestationId"] != entry["attestationUid"]:
            found.append(f"{name}: attested as {answer['attestationId']}, the receipt says "
                         f"{entry['attestationUid']}")
        if entry["merkleRoot"] and not proves(entry["documentHash"], entry["proof"],
                                              entry["merkleRoot"]):
            found.append(f"{name}: its proof does not lead to {entry['merkleRoot']}")
    return found


def main(service_url: str, api_key: str, path: str) -> int:
    with open(path) as file:
        receipt = json.load(file)
    found = problems(service_url, api_key, receipt)
    for line in found:
        print(line)
    merkle = sum(1 for entry in receipt["documents"] if entry["merkleRoot"])
    print(f"{len(receipt['documents']) - len(found)} of {len(receipt['documents'])} documents "
          f"verify; {merkle} Merkle proofs checked")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:4]))

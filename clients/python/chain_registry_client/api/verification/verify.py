from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.verify_request import VerifyRequest
from ...models.verify_response import VerifyResponse
from ...types import Response


def _get_kwargs(
    *,
    body: VerifyRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/verify",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | VerifyResponse | None:
    if response.status_code == 200:
        response_200 = VerifyResponse.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 411:
        response_411 = Problem.from_dict(response.json())

        return response_411

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | VerifyResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: VerifyRequest,
) -> Response[Problem | VerifyResponse]:
    """Verify a document

     Is this document hash bound by an attestation on an active chain, not revoked, not expired, made by
    a trusted attester of that chain and with at least the chain's confirmations? The earliest such
    attestation answers, with the evidence to re-check it on the chain (`blockHash`, `logIndex`,
    `easAddress`, `getAttestationCall`; docs/verify-yourself.md). No match is a 200 with `verified:
    false`, nulls and a `reason`: why not (`not_found`, `chain_inactive`, `untrusted_attester`,
    `expired`, `revoked`, `not_final`; the most telling among the document's attestations, see the
    field). Only a miss costs a second query. `chainId` narrows the search to one chain; `live: true`
    re-reads the attestation from its chain first (503 when no RPC endpoint answers).

    Args:
        body (VerifyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | VerifyResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: VerifyRequest,
) -> Problem | VerifyResponse | None:
    """Verify a document

     Is this document hash bound by an attestation on an active chain, not revoked, not expired, made by
    a trusted attester of that chain and with at least the chain's confirmations? The earliest such
    attestation answers, with the evidence to re-check it on the chain (`blockHash`, `logIndex`,
    `easAddress`, `getAttestationCall`; docs/verify-yourself.md). No match is a 200 with `verified:
    false`, nulls and a `reason`: why not (`not_found`, `chain_inactive`, `untrusted_attester`,
    `expired`, `revoked`, `not_final`; the most telling among the document's attestations, see the
    field). Only a miss costs a second query. `chainId` narrows the search to one chain; `live: true`
    re-reads the attestation from its chain first (503 when no RPC endpoint answers).

    Args:
        body (VerifyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | VerifyResponse
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: VerifyRequest,
) -> Response[Problem | VerifyResponse]:
    """Verify a document

     Is this document hash bound by an attestation on an active chain, not revoked, not expired, made by
    a trusted attester of that chain and with at least the chain's confirmations? The earliest such
    attestation answers, with the evidence to re-check it on the chain (`blockHash`, `logIndex`,
    `easAddress`, `getAttestationCall`; docs/verify-yourself.md). No match is a 200 with `verified:
    false`, nulls and a `reason`: why not (`not_found`, `chain_inactive`, `untrusted_attester`,
    `expired`, `revoked`, `not_final`; the most telling among the document's attestations, see the
    field). Only a miss costs a second query. `chainId` narrows the search to one chain; `live: true`
    re-reads the attestation from its chain first (503 when no RPC endpoint answers).

    Args:
        body (VerifyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | VerifyResponse]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: VerifyRequest,
) -> Problem | VerifyResponse | None:
    """Verify a document

     Is this document hash bound by an attestation on an active chain, not revoked, not expired, made by
    a trusted attester of that chain and with at least the chain's confirmations? The earliest such
    attestation answers, with the evidence to re-check it on the chain (`blockHash`, `logIndex`,
    `easAddress`, `getAttestationCall`; docs/verify-yourself.md). No match is a 200 with `verified:
    false`, nulls and a `reason`: why not (`not_found`, `chain_inactive`, `untrusted_attester`,
    `expired`, `revoked`, `not_final`; the most telling among the document's attestations, see the
    field). Only a miss costs a second query. `chainId` narrows the search to one chain; `live: true`
    re-reads the attestation from its chain first (503 when no RPC endpoint answers).

    Args:
        body (VerifyRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | VerifyResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

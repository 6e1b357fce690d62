from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.offchain_attestation import OffchainAttestation
from ...models.offchain_package_request import OffchainPackageRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: OffchainPackageRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/attestations/offchain",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> OffchainAttestation | Problem | None:
    if response.status_code == 200:
        response_200 = OffchainAttestation.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = OffchainAttestation.from_dict(response.json())

        return response_201

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
) -> Response[OffchainAttestation | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: OffchainPackageRequest,
) -> Response[OffchainAttestation | Problem]:
    """Create offchain attestation

     Submit an EAS offchain attestation package, as the EAS SDK signs it (versions 0, 1 and 2). Stored
    when its domain is an active chain's EAS deployment (and that contract's version), its types are its
    version's, its uid is the one its message makes, its signature is the signer's and its schema is
    registered on the chain; otherwise a 400 naming the part (`sig.domain.version`, `sig.signature`,
    ...) and why. 201 when new (`Location`), 200 with the stored one when its uid is known on that
    chain. 503 when the chain cannot be asked its EAS version.

    Args:
        body (OffchainPackageRequest): The EAS SDK's offchain attestation package, as
            `signOffchainAttestation` and
            easscan's "offchain attestation" JSON give it; checked whole by attestations/offchain.py
            (its errors name the part: `sig.domain.version`, `sig.signature`, ...).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OffchainAttestation | Problem]
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
    body: OffchainPackageRequest,
) -> OffchainAttestation | Problem | None:
    """Create offchain attestation

     Submit an EAS offchain attestation package, as the EAS SDK signs it (versions 0, 1 and 2). Stored
    when its domain is an active chain's EAS deployment (and that contract's version), its types are its
    version's, its uid is the one its message makes, its signature is the signer's and its schema is
    registered on the chain; otherwise a 400 naming the part (`sig.domain.version`, `sig.signature`,
    ...) and why. 201 when new (`Location`), 200 with the stored one when its uid is known on that
    chain. 503 when the chain cannot be asked its EAS version.

    Args:
        body (OffchainPackageRequest): The EAS SDK's offchain attestation package, as
            `signOffchainAttestation` and
            easscan's "offchain attestation" JSON give it; checked whole by attestations/offchain.py
            (its errors name the part: `sig.domain.version`, `sig.signature`, ...).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OffchainAttestation | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: OffchainPackageRequest,
) -> Response[OffchainAttestation | Problem]:
    """Create offchain attestation

     Submit an EAS offchain attestation package, as the EAS SDK signs it (versions 0, 1 and 2). Stored
    when its domain is an active chain's EAS deployment (and that contract's version), its types are its
    version's, its uid is the one its message makes, its signature is the signer's and its schema is
    registered on the chain; otherwise a 400 naming the part (`sig.domain.version`, `sig.signature`,
    ...) and why. 201 when new (`Location`), 200 with the stored one when its uid is known on that
    chain. 503 when the chain cannot be asked its EAS version.

    Args:
        body (OffchainPackageRequest): The EAS SDK's offchain attestation package, as
            `signOffchainAttestation` and
            easscan's "offchain attestation" JSON give it; checked whole by attestations/offchain.py
            (its errors name the part: `sig.domain.version`, `sig.signature`, ...).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OffchainAttestation | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: OffchainPackageRequest,
) -> OffchainAttestation | Problem | None:
    """Create offchain attestation

     Submit an EAS offchain attestation package, as the EAS SDK signs it (versions 0, 1 and 2). Stored
    when its domain is an active chain's EAS deployment (and that contract's version), its types are its
    version's, its uid is the one its message makes, its signature is the signer's and its schema is
    registered on the chain; otherwise a 400 naming the part (`sig.domain.version`, `sig.signature`,
    ...) and why. 201 when new (`Location`), 200 with the stored one when its uid is known on that
    chain. 503 when the chain cannot be asked its EAS version.

    Args:
        body (OffchainPackageRequest): The EAS SDK's offchain attestation package, as
            `signOffchainAttestation` and
            easscan's "offchain attestation" JSON give it; checked whole by attestations/offchain.py
            (its errors name the part: `sig.domain.version`, `sig.signature`, ...).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OffchainAttestation | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

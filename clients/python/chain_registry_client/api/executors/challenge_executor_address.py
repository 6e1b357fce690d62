from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.challenge_request import ChallengeRequest
from ...models.challenge_response import ChallengeResponse
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    chain: str,
    *,
    body: ChallengeRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/chain-registry/{chain}/challenge".format(
            chain=quote(str(chain), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ChallengeResponse | Problem | None:
    if response.status_code == 200:
        response_200 = ChallengeResponse.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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
) -> Response[ChallengeResponse | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    chain: str,
    *,
    client: AuthenticatedClient,
    body: ChallengeRequest,
) -> Response[ChallengeResponse | Problem]:
    """Ask for a challenge proving an address's key

     An EIP-4361 message for the address's key to sign (personal_sign), then sent with
    the registration as `proof`: single use, valid for ADDRESS_PROOF_SECONDS (5 min).

    Args:
        chain (str):
        body (ChallengeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChallengeResponse | Problem]
    """

    kwargs = _get_kwargs(
        chain=chain,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    chain: str,
    *,
    client: AuthenticatedClient,
    body: ChallengeRequest,
) -> ChallengeResponse | Problem | None:
    """Ask for a challenge proving an address's key

     An EIP-4361 message for the address's key to sign (personal_sign), then sent with
    the registration as `proof`: single use, valid for ADDRESS_PROOF_SECONDS (5 min).

    Args:
        chain (str):
        body (ChallengeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChallengeResponse | Problem
    """

    return sync_detailed(
        chain=chain,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    chain: str,
    *,
    client: AuthenticatedClient,
    body: ChallengeRequest,
) -> Response[ChallengeResponse | Problem]:
    """Ask for a challenge proving an address's key

     An EIP-4361 message for the address's key to sign (personal_sign), then sent with
    the registration as `proof`: single use, valid for ADDRESS_PROOF_SECONDS (5 min).

    Args:
        chain (str):
        body (ChallengeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChallengeResponse | Problem]
    """

    kwargs = _get_kwargs(
        chain=chain,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    chain: str,
    *,
    client: AuthenticatedClient,
    body: ChallengeRequest,
) -> ChallengeResponse | Problem | None:
    """Ask for a challenge proving an address's key

     An EIP-4361 message for the address's key to sign (personal_sign), then sent with
    the registration as `proof`: single use, valid for ADDRESS_PROOF_SECONDS (5 min).

    Args:
        chain (str):
        body (ChallengeRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChallengeResponse | Problem
    """

    return (
        await asyncio_detailed(
            chain=chain,
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.timestamp import Timestamp
from ...types import UNSET, Response, Unset


def _get_kwargs(
    hash_: str,
    *,
    chain_id: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["chainId"] = chain_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/timestamps/{hash_}".format(
            hash_=quote(str(hash_), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem | Timestamp | None:
    if response.status_code == 200:
        response_200 = Timestamp.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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
) -> Response[Any | Problem | Timestamp]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    hash_: str,
    *,
    client: AuthenticatedClient,
    chain_id: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Problem | Timestamp]:
    """Get timestamp

     EAS `Timestamped` events on active chains: a bytes32 (an offchain attestation's uid,
    a document hash, ...) anchored at a block's time, newest first, with an opaque cursor.

    Args:
        hash_ (str):
        chain_id (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | Timestamp]
    """

    kwargs = _get_kwargs(
        hash_=hash_,
        chain_id=chain_id,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    hash_: str,
    *,
    client: AuthenticatedClient,
    chain_id: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Problem | Timestamp | None:
    """Get timestamp

     EAS `Timestamped` events on active chains: a bytes32 (an offchain attestation's uid,
    a document hash, ...) anchored at a block's time, newest first, with an opaque cursor.

    Args:
        hash_ (str):
        chain_id (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | Timestamp
    """

    return sync_detailed(
        hash_=hash_,
        client=client,
        chain_id=chain_id,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    hash_: str,
    *,
    client: AuthenticatedClient,
    chain_id: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Problem | Timestamp]:
    """Get timestamp

     EAS `Timestamped` events on active chains: a bytes32 (an offchain attestation's uid,
    a document hash, ...) anchored at a block's time, newest first, with an opaque cursor.

    Args:
        hash_ (str):
        chain_id (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem | Timestamp]
    """

    kwargs = _get_kwargs(
        hash_=hash_,
        chain_id=chain_id,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    hash_: str,
    *,
    client: AuthenticatedClient,
    chain_id: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Problem | Timestamp | None:
    """Get timestamp

     EAS `Timestamped` events on active chains: a bytes32 (an offchain attestation's uid,
    a document hash, ...) anchored at a block's time, newest first, with an opaque cursor.

    Args:
        hash_ (str):
        chain_id (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem | Timestamp
    """

    return (
        await asyncio_detailed(
            hash_=hash_,
            client=client,
            chain_id=chain_id,
            if_none_match=if_none_match,
        )
    ).parsed

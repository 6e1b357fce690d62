import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.paginated_offchain_revocation_list import PaginatedOffchainRevocationList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    data: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    revoker: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_chain_id: list[int] | Unset = UNSET
    if not isinstance(chain_id, Unset):
        json_chain_id = chain_id

    params["chainId"] = json_chain_id

    params["cursor"] = cursor

    params["data"] = data

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    params["limit"] = limit

    params["revoker"] = revoker

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/offchain-revocations",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedOffchainRevocationList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedOffchainRevocationList.from_dict(response.json())

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
) -> Response[PaginatedOffchainRevocationList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    data: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    revoker: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
) -> Response[PaginatedOffchainRevocationList | Problem]:
    """List offchain revocations

     EAS `RevokedOffchain` events on active chains: an attester's revocation of an offchain
    attestation (its uid in `data`), newest first, with an opaque cursor.

    Args:
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        data (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        revoker (str | Unset):
        to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedOffchainRevocationList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        cursor=cursor,
        data=data,
        from_=from_,
        limit=limit,
        revoker=revoker,
        to=to,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    data: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    revoker: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
) -> PaginatedOffchainRevocationList | Problem | None:
    """List offchain revocations

     EAS `RevokedOffchain` events on active chains: an attester's revocation of an offchain
    attestation (its uid in `data`), newest first, with an opaque cursor.

    Args:
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        data (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        revoker (str | Unset):
        to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedOffchainRevocationList | Problem
    """

    return sync_detailed(
        client=client,
        chain_id=chain_id,
        cursor=cursor,
        data=data,
        from_=from_,
        limit=limit,
        revoker=revoker,
        to=to,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    data: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    revoker: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
) -> Response[PaginatedOffchainRevocationList | Problem]:
    """List offchain revocations

     EAS `RevokedOffchain` events on active chains: an attester's revocation of an offchain
    attestation (its uid in `data`), newest first, with an opaque cursor.

    Args:
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        data (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        revoker (str | Unset):
        to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedOffchainRevocationList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        cursor=cursor,
        data=data,
        from_=from_,
        limit=limit,
        revoker=revoker,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    data: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    revoker: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
) -> PaginatedOffchainRevocationList | Problem | None:
    """List offchain revocations

     EAS `RevokedOffchain` events on active chains: an attester's revocation of an offchain
    attestation (its uid in `data`), newest first, with an opaque cursor.

    Args:
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        data (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        revoker (str | Unset):
        to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedOffchainRevocationList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            chain_id=chain_id,
            cursor=cursor,
            data=data,
            from_=from_,
            limit=limit,
            revoker=revoker,
            to=to,
        )
    ).parsed

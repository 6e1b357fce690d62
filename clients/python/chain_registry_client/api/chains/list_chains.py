from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_chains_ordering_item import ListChainsOrderingItem
from ...models.paginated_public_chain_list import PaginatedPublicChainList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    chain_id: list[int] | Unset = UNSET,
    is_testnet: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[ListChainsOrderingItem] | Unset = UNSET,
    short_name: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_chain_id: list[int] | Unset = UNSET
    if not isinstance(chain_id, Unset):
        json_chain_id = chain_id

    params["chainId"] = json_chain_id

    params["isTestnet"] = is_testnet

    params["limit"] = limit

    params["name"] = name

    params["offset"] = offset

    json_ordering: list[str] | Unset = UNSET
    if not isinstance(ordering, Unset):
        json_ordering = []
        for ordering_item_data in ordering:
            ordering_item: str = ordering_item_data
            json_ordering.append(ordering_item)

    params["ordering"] = json_ordering

    params["shortName"] = short_name

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/chains",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedPublicChainList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedPublicChainList.from_dict(response.json())

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
) -> Response[PaginatedPublicChainList | Problem]:
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
    is_testnet: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[ListChainsOrderingItem] | Unset = UNSET,
    short_name: str | Unset = UNSET,
) -> Response[PaginatedPublicChainList | Problem]:
    """List chains

     The supported blockchain networks: active chains with their deployments, the health
    of their RPC endpoints and their online executors.

    Args:
        chain_id (list[int] | Unset):
        is_testnet (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[ListChainsOrderingItem] | Unset):
        short_name (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedPublicChainList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        is_testnet=is_testnet,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        short_name=short_name,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    is_testnet: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[ListChainsOrderingItem] | Unset = UNSET,
    short_name: str | Unset = UNSET,
) -> PaginatedPublicChainList | Problem | None:
    """List chains

     The supported blockchain networks: active chains with their deployments, the health
    of their RPC endpoints and their online executors.

    Args:
        chain_id (list[int] | Unset):
        is_testnet (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[ListChainsOrderingItem] | Unset):
        short_name (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedPublicChainList | Problem
    """

    return sync_detailed(
        client=client,
        chain_id=chain_id,
        is_testnet=is_testnet,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        short_name=short_name,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    is_testnet: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[ListChainsOrderingItem] | Unset = UNSET,
    short_name: str | Unset = UNSET,
) -> Response[PaginatedPublicChainList | Problem]:
    """List chains

     The supported blockchain networks: active chains with their deployments, the health
    of their RPC endpoints and their online executors.

    Args:
        chain_id (list[int] | Unset):
        is_testnet (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[ListChainsOrderingItem] | Unset):
        short_name (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedPublicChainList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        is_testnet=is_testnet,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        short_name=short_name,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    is_testnet: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[ListChainsOrderingItem] | Unset = UNSET,
    short_name: str | Unset = UNSET,
) -> PaginatedPublicChainList | Problem | None:
    """List chains

     The supported blockchain networks: active chains with their deployments, the health
    of their RPC endpoints and their online executors.

    Args:
        chain_id (list[int] | Unset):
        is_testnet (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[ListChainsOrderingItem] | Unset):
        short_name (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedPublicChainList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            chain_id=chain_id,
            is_testnet=is_testnet,
            limit=limit,
            name=name,
            offset=offset,
            ordering=ordering,
            short_name=short_name,
        )
    ).parsed

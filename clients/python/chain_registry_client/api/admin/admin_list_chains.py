from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_list_chains_ordering_item import AdminListChainsOrderingItem
from ...models.admin_list_chains_status_item import AdminListChainsStatusItem
from ...models.paginated_chain_list import PaginatedChainList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    chain_id: list[int] | Unset = UNSET,
    is_testnet: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListChainsOrderingItem] | Unset = UNSET,
    search: str | Unset = UNSET,
    short_name: str | Unset = UNSET,
    status: list[AdminListChainsStatusItem] | Unset = UNSET,
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

    params["search"] = search

    params["shortName"] = short_name

    json_status: list[str] | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = []
        for status_item_data in status:
            status_item: str = status_item_data
            json_status.append(status_item)

    params["status"] = json_status

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/chains",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedChainList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedChainList.from_dict(response.json())

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
) -> Response[PaginatedChainList | Problem]:
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
    ordering: list[AdminListChainsOrderingItem] | Unset = UNSET,
    search: str | Unset = UNSET,
    short_name: str | Unset = UNSET,
    status: list[AdminListChainsStatusItem] | Unset = UNSET,
) -> Response[PaginatedChainList | Problem]:
    """List chains

     Blockchain networks, identified by their EIP-155 chain id.

    Args:
        chain_id (list[int] | Unset):
        is_testnet (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[AdminListChainsOrderingItem] | Unset):
        search (str | Unset):
        short_name (str | Unset):
        status (list[AdminListChainsStatusItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedChainList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        is_testnet=is_testnet,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        search=search,
        short_name=short_name,
        status=status,
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
    ordering: list[AdminListChainsOrderingItem] | Unset = UNSET,
    search: str | Unset = UNSET,
    short_name: str | Unset = UNSET,
    status: list[AdminListChainsStatusItem] | Unset = UNSET,
) -> PaginatedChainList | Problem | None:
    """List chains

     Blockchain networks, identified by their EIP-155 chain id.

    Args:
        chain_id (list[int] | Unset):
        is_testnet (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[AdminListChainsOrderingItem] | Unset):
        search (str | Unset):
        short_name (str | Unset):
        status (list[AdminListChainsStatusItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedChainList | Problem
    """

    return sync_detailed(
        client=client,
        chain_id=chain_id,
        is_testnet=is_testnet,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        search=search,
        short_name=short_name,
        status=status,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    is_testnet: bool | Unset = UNSET,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListChainsOrderingItem] | Unset = UNSET,
    search: str | Unset = UNSET,
    short_name: str | Unset = UNSET,
    status: list[AdminListChainsStatusItem] | Unset = UNSET,
) -> Response[PaginatedChainList | Problem]:
    """List chains

     Blockchain networks, identified by their EIP-155 chain id.

    Args:
        chain_id (list[int] | Unset):
        is_testnet (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[AdminListChainsOrderingItem] | Unset):
        search (str | Unset):
        short_name (str | Unset):
        status (list[AdminListChainsStatusItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedChainList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        is_testnet=is_testnet,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        search=search,
        short_name=short_name,
        status=status,
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
    ordering: list[AdminListChainsOrderingItem] | Unset = UNSET,
    search: str | Unset = UNSET,
    short_name: str | Unset = UNSET,
    status: list[AdminListChainsStatusItem] | Unset = UNSET,
) -> PaginatedChainList | Problem | None:
    """List chains

     Blockchain networks, identified by their EIP-155 chain id.

    Args:
        chain_id (list[int] | Unset):
        is_testnet (bool | Unset):
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[AdminListChainsOrderingItem] | Unset):
        search (str | Unset):
        short_name (str | Unset):
        status (list[AdminListChainsStatusItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedChainList | Problem
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
            search=search,
            short_name=short_name,
            status=status,
        )
    ).parsed

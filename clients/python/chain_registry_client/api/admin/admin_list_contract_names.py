from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_list_contract_names_ordering_item import (
    AdminListContractNamesOrderingItem,
)
from ...models.paginated_contract_name_list import PaginatedContractNameList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    category: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListContractNamesOrderingItem] | Unset = UNSET,
    search: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["category"] = category

    params["limit"] = limit

    params["offset"] = offset

    json_ordering: list[str] | Unset = UNSET
    if not isinstance(ordering, Unset):
        json_ordering = []
        for ordering_item_data in ordering:
            ordering_item: str = ordering_item_data
            json_ordering.append(ordering_item)

    params["ordering"] = json_ordering

    params["search"] = search

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/contract-names",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedContractNameList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedContractNameList.from_dict(response.json())

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
) -> Response[PaginatedContractNameList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    category: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListContractNamesOrderingItem] | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Response[PaginatedContractNameList | Problem]:
    """List contract names

     Base contract configurations.

    Args:
        category (str | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListContractNamesOrderingItem] | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedContractNameList | Problem]
    """

    kwargs = _get_kwargs(
        category=category,
        limit=limit,
        offset=offset,
        ordering=ordering,
        search=search,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    category: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListContractNamesOrderingItem] | Unset = UNSET,
    search: str | Unset = UNSET,
) -> PaginatedContractNameList | Problem | None:
    """List contract names

     Base contract configurations.

    Args:
        category (str | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListContractNamesOrderingItem] | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedContractNameList | Problem
    """

    return sync_detailed(
        client=client,
        category=category,
        limit=limit,
        offset=offset,
        ordering=ordering,
        search=search,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    category: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListContractNamesOrderingItem] | Unset = UNSET,
    search: str | Unset = UNSET,
) -> Response[PaginatedContractNameList | Problem]:
    """List contract names

     Base contract configurations.

    Args:
        category (str | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListContractNamesOrderingItem] | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedContractNameList | Problem]
    """

    kwargs = _get_kwargs(
        category=category,
        limit=limit,
        offset=offset,
        ordering=ordering,
        search=search,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    category: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListContractNamesOrderingItem] | Unset = UNSET,
    search: str | Unset = UNSET,
) -> PaginatedContractNameList | Problem | None:
    """List contract names

     Base contract configurations.

    Args:
        category (str | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListContractNamesOrderingItem] | Unset):
        search (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedContractNameList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            category=category,
            limit=limit,
            offset=offset,
            ordering=ordering,
            search=search,
        )
    ).parsed

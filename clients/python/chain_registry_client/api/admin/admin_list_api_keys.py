from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_list_api_keys_ordering_item import (
    AdminListApiKeysOrderingItem,
)
from ...models.admin_list_api_keys_scope_item import AdminListApiKeysScopeItem
from ...models.paginated_api_key_list import PaginatedApiKeyList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListApiKeysOrderingItem] | Unset = UNSET,
    revoked: bool | Unset = UNSET,
    scope: list[AdminListApiKeysScopeItem] | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

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

    params["revoked"] = revoked

    json_scope: list[str] | Unset = UNSET
    if not isinstance(scope, Unset):
        json_scope = []
        for scope_item_data in scope:
            scope_item: str = scope_item_data
            json_scope.append(scope_item)

    params["scope"] = json_scope

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/api-keys",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedApiKeyList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedApiKeyList.from_dict(response.json())

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
) -> Response[PaginatedApiKeyList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListApiKeysOrderingItem] | Unset = UNSET,
    revoked: bool | Unset = UNSET,
    scope: list[AdminListApiKeysScopeItem] | Unset = UNSET,
) -> Response[PaginatedApiKeyList | Problem]:
    """List API keys

     API keys (never their secrets): their allow-lists, and revocation. Keys are created
    with `manage.py create_api_key` or in the Django admin (the secret is shown there once).

    Args:
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[AdminListApiKeysOrderingItem] | Unset):
        revoked (bool | Unset):
        scope (list[AdminListApiKeysScopeItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedApiKeyList | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        revoked=revoked,
        scope=scope,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListApiKeysOrderingItem] | Unset = UNSET,
    revoked: bool | Unset = UNSET,
    scope: list[AdminListApiKeysScopeItem] | Unset = UNSET,
) -> PaginatedApiKeyList | Problem | None:
    """List API keys

     API keys (never their secrets): their allow-lists, and revocation. Keys are created
    with `manage.py create_api_key` or in the Django admin (the secret is shown there once).

    Args:
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[AdminListApiKeysOrderingItem] | Unset):
        revoked (bool | Unset):
        scope (list[AdminListApiKeysScopeItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedApiKeyList | Problem
    """

    return sync_detailed(
        client=client,
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        revoked=revoked,
        scope=scope,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListApiKeysOrderingItem] | Unset = UNSET,
    revoked: bool | Unset = UNSET,
    scope: list[AdminListApiKeysScopeItem] | Unset = UNSET,
) -> Response[PaginatedApiKeyList | Problem]:
    """List API keys

     API keys (never their secrets): their allow-lists, and revocation. Keys are created
    with `manage.py create_api_key` or in the Django admin (the secret is shown there once).

    Args:
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[AdminListApiKeysOrderingItem] | Unset):
        revoked (bool | Unset):
        scope (list[AdminListApiKeysScopeItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedApiKeyList | Problem]
    """

    kwargs = _get_kwargs(
        limit=limit,
        name=name,
        offset=offset,
        ordering=ordering,
        revoked=revoked,
        scope=scope,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = UNSET,
    name: str | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListApiKeysOrderingItem] | Unset = UNSET,
    revoked: bool | Unset = UNSET,
    scope: list[AdminListApiKeysScopeItem] | Unset = UNSET,
) -> PaginatedApiKeyList | Problem | None:
    """List API keys

     API keys (never their secrets): their allow-lists, and revocation. Keys are created
    with `manage.py create_api_key` or in the Django admin (the secret is shown there once).

    Args:
        limit (int | Unset):
        name (str | Unset):
        offset (int | Unset):
        ordering (list[AdminListApiKeysOrderingItem] | Unset):
        revoked (bool | Unset):
        scope (list[AdminListApiKeysScopeItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedApiKeyList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            name=name,
            offset=offset,
            ordering=ordering,
            revoked=revoked,
            scope=scope,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_list_issuers_identity_item import (
    AdminListIssuersIdentityItem,
)
from ...models.admin_list_issuers_ordering_item import (
    AdminListIssuersOrderingItem,
)
from ...models.paginated_issuer_list import PaginatedIssuerList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    domain: str | Unset = UNSET,
    identity: list[AdminListIssuersIdentityItem] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListIssuersOrderingItem] | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["domain"] = domain

    json_identity: list[str] | Unset = UNSET
    if not isinstance(identity, Unset):
        json_identity = []
        for identity_item_data in identity:
            identity_item: str = identity_item_data
            json_identity.append(identity_item)

    params["identity"] = json_identity

    params["limit"] = limit

    params["offset"] = offset

    json_ordering: list[str] | Unset = UNSET
    if not isinstance(ordering, Unset):
        json_ordering = []
        for ordering_item_data in ordering:
            ordering_item: str = ordering_item_data
            json_ordering.append(ordering_item)

    params["ordering"] = json_ordering

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/issuers",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedIssuerList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedIssuerList.from_dict(response.json())

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
) -> Response[PaginatedIssuerList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    domain: str | Unset = UNSET,
    identity: list[AdminListIssuersIdentityItem] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListIssuersOrderingItem] | Unset = UNSET,
) -> Response[PaginatedIssuerList | Problem]:
    """List issuers

     The organisations behind attester addresses, and their proven identity.

    Args:
        domain (str | Unset):
        identity (list[AdminListIssuersIdentityItem] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListIssuersOrderingItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedIssuerList | Problem]
    """

    kwargs = _get_kwargs(
        domain=domain,
        identity=identity,
        limit=limit,
        offset=offset,
        ordering=ordering,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    domain: str | Unset = UNSET,
    identity: list[AdminListIssuersIdentityItem] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListIssuersOrderingItem] | Unset = UNSET,
) -> PaginatedIssuerList | Problem | None:
    """List issuers

     The organisations behind attester addresses, and their proven identity.

    Args:
        domain (str | Unset):
        identity (list[AdminListIssuersIdentityItem] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListIssuersOrderingItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedIssuerList | Problem
    """

    return sync_detailed(
        client=client,
        domain=domain,
        identity=identity,
        limit=limit,
        offset=offset,
        ordering=ordering,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    domain: str | Unset = UNSET,
    identity: list[AdminListIssuersIdentityItem] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListIssuersOrderingItem] | Unset = UNSET,
) -> Response[PaginatedIssuerList | Problem]:
    """List issuers

     The organisations behind attester addresses, and their proven identity.

    Args:
        domain (str | Unset):
        identity (list[AdminListIssuersIdentityItem] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListIssuersOrderingItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedIssuerList | Problem]
    """

    kwargs = _get_kwargs(
        domain=domain,
        identity=identity,
        limit=limit,
        offset=offset,
        ordering=ordering,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    domain: str | Unset = UNSET,
    identity: list[AdminListIssuersIdentityItem] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListIssuersOrderingItem] | Unset = UNSET,
) -> PaginatedIssuerList | Problem | None:
    """List issuers

     The organisations behind attester addresses, and their proven identity.

    Args:
        domain (str | Unset):
        identity (list[AdminListIssuersIdentityItem] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListIssuersOrderingItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedIssuerList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            domain=domain,
            identity=identity,
            limit=limit,
            offset=offset,
            ordering=ordering,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_list_rpc_endpoints_ordering_item import (
    AdminListRpcEndpointsOrderingItem,
)
from ...models.admin_list_rpc_endpoints_probe_status_item import (
    AdminListRpcEndpointsProbeStatusItem,
)
from ...models.paginated_rpc_endpoint_list import PaginatedRpcEndpointList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    monitored: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListRpcEndpointsOrderingItem] | Unset = UNSET,
    probe_status: list[AdminListRpcEndpointsProbeStatusItem] | Unset = UNSET,
    provider: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_chain_id: list[int] | Unset = UNSET
    if not isinstance(chain_id, Unset):
        json_chain_id = chain_id

    params["chainId"] = json_chain_id

    params["limit"] = limit

    params["monitored"] = monitored

    params["offset"] = offset

    json_ordering: list[str] | Unset = UNSET
    if not isinstance(ordering, Unset):
        json_ordering = []
        for ordering_item_data in ordering:
            ordering_item: str = ordering_item_data
            json_ordering.append(ordering_item)

    params["ordering"] = json_ordering

    json_probe_status: list[str] | Unset = UNSET
    if not isinstance(probe_status, Unset):
        json_probe_status = []
        for probe_status_item_data in probe_status:
            probe_status_item: str = probe_status_item_data
            json_probe_status.append(probe_status_item)

    params["probeStatus"] = json_probe_status

    params["provider"] = provider

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/admin/rpc",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedRpcEndpointList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedRpcEndpointList.from_dict(response.json())

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
) -> Response[PaginatedRpcEndpointList | Problem]:
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
    limit: int | Unset = UNSET,
    monitored: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListRpcEndpointsOrderingItem] | Unset = UNSET,
    probe_status: list[AdminListRpcEndpointsProbeStatusItem] | Unset = UNSET,
    provider: str | Unset = UNSET,
) -> Response[PaginatedRpcEndpointList | Problem]:
    """List RPC endpoints

     RPC endpoints of chains, with what the probes measured; URLs are shown masked.

    Args:
        chain_id (list[int] | Unset):
        limit (int | Unset):
        monitored (bool | Unset):
        offset (int | Unset):
        ordering (list[AdminListRpcEndpointsOrderingItem] | Unset):
        probe_status (list[AdminListRpcEndpointsProbeStatusItem] | Unset):
        provider (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedRpcEndpointList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        limit=limit,
        monitored=monitored,
        offset=offset,
        ordering=ordering,
        probe_status=probe_status,
        provider=provider,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    monitored: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListRpcEndpointsOrderingItem] | Unset = UNSET,
    probe_status: list[AdminListRpcEndpointsProbeStatusItem] | Unset = UNSET,
    provider: str | Unset = UNSET,
) -> PaginatedRpcEndpointList | Problem | None:
    """List RPC endpoints

     RPC endpoints of chains, with what the probes measured; URLs are shown masked.

    Args:
        chain_id (list[int] | Unset):
        limit (int | Unset):
        monitored (bool | Unset):
        offset (int | Unset):
        ordering (list[AdminListRpcEndpointsOrderingItem] | Unset):
        probe_status (list[AdminListRpcEndpointsProbeStatusItem] | Unset):
        provider (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedRpcEndpointList | Problem
    """

    return sync_detailed(
        client=client,
        chain_id=chain_id,
        limit=limit,
        monitored=monitored,
        offset=offset,
        ordering=ordering,
        probe_status=probe_status,
        provider=provider,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    monitored: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListRpcEndpointsOrderingItem] | Unset = UNSET,
    probe_status: list[AdminListRpcEndpointsProbeStatusItem] | Unset = UNSET,
    provider: str | Unset = UNSET,
) -> Response[PaginatedRpcEndpointList | Problem]:
    """List RPC endpoints

     RPC endpoints of chains, with what the probes measured; URLs are shown masked.

    Args:
        chain_id (list[int] | Unset):
        limit (int | Unset):
        monitored (bool | Unset):
        offset (int | Unset):
        ordering (list[AdminListRpcEndpointsOrderingItem] | Unset):
        probe_status (list[AdminListRpcEndpointsProbeStatusItem] | Unset):
        provider (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedRpcEndpointList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        limit=limit,
        monitored=monitored,
        offset=offset,
        ordering=ordering,
        probe_status=probe_status,
        provider=provider,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    monitored: bool | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListRpcEndpointsOrderingItem] | Unset = UNSET,
    probe_status: list[AdminListRpcEndpointsProbeStatusItem] | Unset = UNSET,
    provider: str | Unset = UNSET,
) -> PaginatedRpcEndpointList | Problem | None:
    """List RPC endpoints

     RPC endpoints of chains, with what the probes measured; URLs are shown masked.

    Args:
        chain_id (list[int] | Unset):
        limit (int | Unset):
        monitored (bool | Unset):
        offset (int | Unset):
        ordering (list[AdminListRpcEndpointsOrderingItem] | Unset):
        probe_status (list[AdminListRpcEndpointsProbeStatusItem] | Unset):
        provider (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedRpcEndpointList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            chain_id=chain_id,
            limit=limit,
            monitored=monitored,
            offset=offset,
            ordering=ordering,
            probe_status=probe_status,
            provider=provider,
        )
    ).parsed

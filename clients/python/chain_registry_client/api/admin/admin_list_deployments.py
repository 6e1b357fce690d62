from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.admin_list_deployments_kind_item import (
    AdminListDeploymentsKindItem,
)
from ...models.admin_list_deployments_ordering_item import (
    AdminListDeploymentsOrderingItem,
)
from ...models.paginated_deployment_list import PaginatedDeploymentList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    address: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    contract_name: str | Unset = UNSET,
    contract_version: list[float] | Unset = UNSET,
    kind: list[AdminListDeploymentsKindItem] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListDeploymentsOrderingItem] | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["address"] = address

    json_chain_id: list[int] | Unset = UNSET
    if not isinstance(chain_id, Unset):
        json_chain_id = chain_id

    params["chainId"] = json_chain_id

    params["contractName"] = contract_name

    json_contract_version: list[float] | Unset = UNSET
    if not isinstance(contract_version, Unset):
        json_contract_version = contract_version

    params["contractVersion"] = json_contract_version

    json_kind: list[str] | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = []
        for kind_item_data in kind:
            kind_item: str = kind_item_data
            json_kind.append(kind_item)

    params["kind"] = json_kind

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
        "url": "/v1/admin/deployments",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedDeploymentList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedDeploymentList.from_dict(response.json())

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
) -> Response[PaginatedDeploymentList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    address: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    contract_name: str | Unset = UNSET,
    contract_version: list[float] | Unset = UNSET,
    kind: list[AdminListDeploymentsKindItem] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListDeploymentsOrderingItem] | Unset = UNSET,
) -> Response[PaginatedDeploymentList | Problem]:
    """List deployments

     Contract versions deployed at an address on a chain.

    Args:
        address (str | Unset):
        chain_id (list[int] | Unset):
        contract_name (str | Unset):
        contract_version (list[float] | Unset):
        kind (list[AdminListDeploymentsKindItem] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListDeploymentsOrderingItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedDeploymentList | Problem]
    """

    kwargs = _get_kwargs(
        address=address,
        chain_id=chain_id,
        contract_name=contract_name,
        contract_version=contract_version,
        kind=kind,
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
    address: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    contract_name: str | Unset = UNSET,
    contract_version: list[float] | Unset = UNSET,
    kind: list[AdminListDeploymentsKindItem] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListDeploymentsOrderingItem] | Unset = UNSET,
) -> PaginatedDeploymentList | Problem | None:
    """List deployments

     Contract versions deployed at an address on a chain.

    Args:
        address (str | Unset):
        chain_id (list[int] | Unset):
        contract_name (str | Unset):
        contract_version (list[float] | Unset):
        kind (list[AdminListDeploymentsKindItem] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListDeploymentsOrderingItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedDeploymentList | Problem
    """

    return sync_detailed(
        client=client,
        address=address,
        chain_id=chain_id,
        contract_name=contract_name,
        contract_version=contract_version,
        kind=kind,
        limit=limit,
        offset=offset,
        ordering=ordering,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    address: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    contract_name: str | Unset = UNSET,
    contract_version: list[float] | Unset = UNSET,
    kind: list[AdminListDeploymentsKindItem] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListDeploymentsOrderingItem] | Unset = UNSET,
) -> Response[PaginatedDeploymentList | Problem]:
    """List deployments

     Contract versions deployed at an address on a chain.

    Args:
        address (str | Unset):
        chain_id (list[int] | Unset):
        contract_name (str | Unset):
        contract_version (list[float] | Unset):
        kind (list[AdminListDeploymentsKindItem] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListDeploymentsOrderingItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedDeploymentList | Problem]
    """

    kwargs = _get_kwargs(
        address=address,
        chain_id=chain_id,
        contract_name=contract_name,
        contract_version=contract_version,
        kind=kind,
        limit=limit,
        offset=offset,
        ordering=ordering,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    address: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    contract_name: str | Unset = UNSET,
    contract_version: list[float] | Unset = UNSET,
    kind: list[AdminListDeploymentsKindItem] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    ordering: list[AdminListDeploymentsOrderingItem] | Unset = UNSET,
) -> PaginatedDeploymentList | Problem | None:
    """List deployments

     Contract versions deployed at an address on a chain.

    Args:
        address (str | Unset):
        chain_id (list[int] | Unset):
        contract_name (str | Unset):
        contract_version (list[float] | Unset):
        kind (list[AdminListDeploymentsKindItem] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        ordering (list[AdminListDeploymentsOrderingItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedDeploymentList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            address=address,
            chain_id=chain_id,
            contract_name=contract_name,
            contract_version=contract_version,
            kind=kind,
            limit=limit,
            offset=offset,
            ordering=ordering,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.list_workflows_state_item import ListWorkflowsStateItem
from ...models.paginated_workflow_list import PaginatedWorkflowList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    document_hash: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    state: list[ListWorkflowsStateItem] | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_chain_id: list[int] | Unset = UNSET
    if not isinstance(chain_id, Unset):
        json_chain_id = chain_id

    params["chainId"] = json_chain_id

    params["cursor"] = cursor

    params["documentHash"] = document_hash

    params["limit"] = limit

    json_state: list[str] | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = []
        for state_item_data in state:
            state_item: str = state_item_data
            json_state.append(state_item)

    params["state"] = json_state

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/workflows",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedWorkflowList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedWorkflowList.from_dict(response.json())

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
) -> Response[PaginatedWorkflowList | Problem]:
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
    document_hash: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    state: list[ListWorkflowsStateItem] | Unset = UNSET,
) -> Response[PaginatedWorkflowList | Problem]:
    """List workflows

     Document-binding workflows: a document hash to attest on a chain, followed from the
    request to the confirmed attestation.

    Args:
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        document_hash (str | Unset):
        limit (int | Unset):
        state (list[ListWorkflowsStateItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedWorkflowList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        cursor=cursor,
        document_hash=document_hash,
        limit=limit,
        state=state,
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
    document_hash: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    state: list[ListWorkflowsStateItem] | Unset = UNSET,
) -> PaginatedWorkflowList | Problem | None:
    """List workflows

     Document-binding workflows: a document hash to attest on a chain, followed from the
    request to the confirmed attestation.

    Args:
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        document_hash (str | Unset):
        limit (int | Unset):
        state (list[ListWorkflowsStateItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedWorkflowList | Problem
    """

    return sync_detailed(
        client=client,
        chain_id=chain_id,
        cursor=cursor,
        document_hash=document_hash,
        limit=limit,
        state=state,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    document_hash: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    state: list[ListWorkflowsStateItem] | Unset = UNSET,
) -> Response[PaginatedWorkflowList | Problem]:
    """List workflows

     Document-binding workflows: a document hash to attest on a chain, followed from the
    request to the confirmed attestation.

    Args:
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        document_hash (str | Unset):
        limit (int | Unset):
        state (list[ListWorkflowsStateItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedWorkflowList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        cursor=cursor,
        document_hash=document_hash,
        limit=limit,
        state=state,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    document_hash: str | Unset = UNSET,
    limit: int | Unset = UNSET,
    state: list[ListWorkflowsStateItem] | Unset = UNSET,
) -> PaginatedWorkflowList | Problem | None:
    """List workflows

     Document-binding workflows: a document hash to attest on a chain, followed from the
    request to the confirmed attestation.

    Args:
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        document_hash (str | Unset):
        limit (int | Unset):
        state (list[ListWorkflowsStateItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedWorkflowList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            chain_id=chain_id,
            cursor=cursor,
            document_hash=document_hash,
            limit=limit,
            state=state,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.workflow_batch import WorkflowBatch
from ...models.workflow_batch_create_request import WorkflowBatchCreateRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: WorkflowBatchCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/workflows/batch",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | WorkflowBatch | None:
    if response.status_code == 200:
        response_200 = WorkflowBatch.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = WorkflowBatch.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 411:
        response_411 = Problem.from_dict(response.json())

        return response_411

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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
) -> Response[Problem | WorkflowBatch]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: WorkflowBatchCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | WorkflowBatch]:
    """Create workflow batch

     Bind many documents: up to 1,000 binding requests, each checked as `POST
    /workflows` checks one, queued all together or none (a refusal names the item:
    `workflows.3.documentHash`). 201 when any was created; `Location` is the first
    created workflow's.

    Args:
        idempotency_key (str | Unset):
        body (WorkflowBatchCreateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WorkflowBatch]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: WorkflowBatchCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Problem | WorkflowBatch | None:
    """Create workflow batch

     Bind many documents: up to 1,000 binding requests, each checked as `POST
    /workflows` checks one, queued all together or none (a refusal names the item:
    `workflows.3.documentHash`). 201 when any was created; `Location` is the first
    created workflow's.

    Args:
        idempotency_key (str | Unset):
        body (WorkflowBatchCreateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WorkflowBatch
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: WorkflowBatchCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[Problem | WorkflowBatch]:
    """Create workflow batch

     Bind many documents: up to 1,000 binding requests, each checked as `POST
    /workflows` checks one, queued all together or none (a refusal names the item:
    `workflows.3.documentHash`). 201 when any was created; `Location` is the first
    created workflow's.

    Args:
        idempotency_key (str | Unset):
        body (WorkflowBatchCreateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WorkflowBatch]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: WorkflowBatchCreateRequest,
    idempotency_key: str | Unset = UNSET,
) -> Problem | WorkflowBatch | None:
    """Create workflow batch

     Bind many documents: up to 1,000 binding requests, each checked as `POST
    /workflows` checks one, queued all together or none (a refusal names the item:
    `workflows.3.documentHash`). 201 when any was created; `Location` is the first
    created workflow's.

    Args:
        idempotency_key (str | Unset):
        body (WorkflowBatchCreateRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WorkflowBatch
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed

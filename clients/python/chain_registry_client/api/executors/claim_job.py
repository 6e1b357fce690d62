from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.job import Job
from ...models.job_batch import JobBatch
from ...models.job_claim_request import JobClaimRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    chain: str,
    *,
    body: JobClaimRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/chain-registry/{chain}/jobs/claim".format(
            chain=quote(str(chain), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Job | JobBatch | Problem | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> Job | JobBatch:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_job_claim_response_type_0 = Job.from_dict(data)

                return componentsschemas_job_claim_response_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_job_claim_response_type_1 = JobBatch.from_dict(data)

            return componentsschemas_job_claim_response_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

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
) -> Response[Any | Job | JobBatch | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    chain: str,
    *,
    client: AuthenticatedClient,
    body: JobClaimRequest,
) -> Response[Any | Job | JobBatch | Problem]:
    r"""Claim job

     Take the oldest queued workflow of the chain (204 when there is none); with
    `limit`, up to that many of them, as `{\"jobs\": [...]}`, each handed to this executor
    alone.

    Args:
        chain (str):
        body (JobClaimRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Job | JobBatch | Problem]
    """

    kwargs = _get_kwargs(
        chain=chain,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    chain: str,
    *,
    client: AuthenticatedClient,
    body: JobClaimRequest,
) -> Any | Job | JobBatch | Problem | None:
    r"""Claim job

     Take the oldest queued workflow of the chain (204 when there is none); with
    `limit`, up to that many of them, as `{\"jobs\": [...]}`, each handed to this executor
    alone.

    Args:
        chain (str):
        body (JobClaimRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Job | JobBatch | Problem
    """

    return sync_detailed(
        chain=chain,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    chain: str,
    *,
    client: AuthenticatedClient,
    body: JobClaimRequest,
) -> Response[Any | Job | JobBatch | Problem]:
    r"""Claim job

     Take the oldest queued workflow of the chain (204 when there is none); with
    `limit`, up to that many of them, as `{\"jobs\": [...]}`, each handed to this executor
    alone.

    Args:
        chain (str):
        body (JobClaimRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Job | JobBatch | Problem]
    """

    kwargs = _get_kwargs(
        chain=chain,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    chain: str,
    *,
    client: AuthenticatedClient,
    body: JobClaimRequest,
) -> Any | Job | JobBatch | Problem | None:
    r"""Claim job

     Take the oldest queued workflow of the chain (204 when there is none); with
    `limit`, up to that many of them, as `{\"jobs\": [...]}`, each handed to this executor
    alone.

    Args:
        chain (str):
        body (JobClaimRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Job | JobBatch | Problem
    """

    return (
        await asyncio_detailed(
            chain=chain,
            client=client,
            body=body,
        )
    ).parsed

from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.paginated_public_schema_list import PaginatedPublicSchemaList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    uid: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_chain_id: list[int] | Unset = UNSET
    if not isinstance(chain_id, Unset):
        json_chain_id = chain_id

    params["chainId"] = json_chain_id

    params["limit"] = limit

    params["offset"] = offset

    params["uid"] = uid

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/schemas",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedPublicSchemaList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedPublicSchemaList.from_dict(response.json())

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
) -> Response[PaginatedPublicSchemaList | Problem]:
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
    offset: int | Unset = UNSET,
    uid: str | Unset = UNSET,
) -> Response[PaginatedPublicSchemaList | Problem]:
    """List schemas

     EAS schemas registered on active chains, in the order of registration per chain;
    and the grammar check of a schema string and of data for it.

    Args:
        chain_id (list[int] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        uid (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedPublicSchemaList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        limit=limit,
        offset=offset,
        uid=uid,
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
    offset: int | Unset = UNSET,
    uid: str | Unset = UNSET,
) -> PaginatedPublicSchemaList | Problem | None:
    """List schemas

     EAS schemas registered on active chains, in the order of registration per chain;
    and the grammar check of a schema string and of data for it.

    Args:
        chain_id (list[int] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        uid (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedPublicSchemaList | Problem
    """

    return sync_detailed(
        client=client,
        chain_id=chain_id,
        limit=limit,
        offset=offset,
        uid=uid,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    uid: str | Unset = UNSET,
) -> Response[PaginatedPublicSchemaList | Problem]:
    """List schemas

     EAS schemas registered on active chains, in the order of registration per chain;
    and the grammar check of a schema string and of data for it.

    Args:
        chain_id (list[int] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        uid (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedPublicSchemaList | Problem]
    """

    kwargs = _get_kwargs(
        chain_id=chain_id,
        limit=limit,
        offset=offset,
        uid=uid,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    chain_id: list[int] | Unset = UNSET,
    limit: int | Unset = UNSET,
    offset: int | Unset = UNSET,
    uid: str | Unset = UNSET,
) -> PaginatedPublicSchemaList | Problem | None:
    """List schemas

     EAS schemas registered on active chains, in the order of registration per chain;
    and the grammar check of a schema string and of data for it.

    Args:
        chain_id (list[int] | Unset):
        limit (int | Unset):
        offset (int | Unset):
        uid (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedPublicSchemaList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            chain_id=chain_id,
            limit=limit,
            offset=offset,
            uid=uid,
        )
    ).parsed

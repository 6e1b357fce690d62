from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.api_key import ApiKey
from ...models.patched_api_key_request import PatchedApiKeyRequest
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    prefix: str,
    *,
    body: PatchedApiKeyRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/admin/api-keys/{prefix}".format(
            prefix=quote(str(prefix), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ApiKey | Problem | None:
    if response.status_code == 200:
        response_200 = ApiKey.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 411:
        response_411 = Problem.from_dict(response.json())

        return response_411

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ApiKey | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    prefix: str,
    *,
    client: AuthenticatedClient,
    body: PatchedApiKeyRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[ApiKey | Problem]:
    """Update API key

     API keys (never their secrets): their allow-lists, and revocation. Keys are created
    with `manage.py create_api_key` or in the Django admin (the secret is shown there once).

    Args:
        prefix (str):
        if_match (str | Unset):
        body (PatchedApiKeyRequest | Unset): A key as administrators see it: never its secret
            (shown once, at its creation).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiKey | Problem]
    """

    kwargs = _get_kwargs(
        prefix=prefix,
        body=body,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    prefix: str,
    *,
    client: AuthenticatedClient,
    body: PatchedApiKeyRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> ApiKey | Problem | None:
    """Update API key

     API keys (never their secrets): their allow-lists, and revocation. Keys are created
    with `manage.py create_api_key` or in the Django admin (the secret is shown there once).

    Args:
        prefix (str):
        if_match (str | Unset):
        body (PatchedApiKeyRequest | Unset): A key as administrators see it: never its secret
            (shown once, at its creation).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiKey | Problem
    """

    return sync_detailed(
        prefix=prefix,
        client=client,
        body=body,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    prefix: str,
    *,
    client: AuthenticatedClient,
    body: PatchedApiKeyRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[ApiKey | Problem]:
    """Update API key

     API keys (never their secrets): their allow-lists, and revocation. Keys are created
    with `manage.py create_api_key` or in the Django admin (the secret is shown there once).

    Args:
        prefix (str):
        if_match (str | Unset):
        body (PatchedApiKeyRequest | Unset): A key as administrators see it: never its secret
            (shown once, at its creation).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ApiKey | Problem]
    """

    kwargs = _get_kwargs(
        prefix=prefix,
        body=body,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    prefix: str,
    *,
    client: AuthenticatedClient,
    body: PatchedApiKeyRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> ApiKey | Problem | None:
    """Update API key

     API keys (never their secrets): their allow-lists, and revocation. Keys are created
    with `manage.py create_api_key` or in the Django admin (the secret is shown there once).

    Args:
        prefix (str):
        if_match (str | Unset):
        body (PatchedApiKeyRequest | Unset): A key as administrators see it: never its secret
            (shown once, at its creation).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ApiKey | Problem
    """

    return (
        await asyncio_detailed(
            prefix=prefix,
            client=client,
            body=body,
            if_match=if_match,
        )
    ).parsed

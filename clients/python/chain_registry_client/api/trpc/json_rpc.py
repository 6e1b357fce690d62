from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.json_rpc_body_type_0 import JsonRpcBodyType0
from ...models.json_rpc_body_type_1_item import JsonRpcBodyType1Item
from ...models.json_rpc_response_200_type_0 import JsonRpcResponse200Type0
from ...models.json_rpc_response_200_type_1_item import JsonRpcResponse200Type1Item
from ...models.json_rpc_response_400 import JsonRpcResponse400
from ...models.json_rpc_response_401 import JsonRpcResponse401
from ...models.json_rpc_response_404 import JsonRpcResponse404
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: JsonRpcBodyType0 | list[JsonRpcBodyType1Item] | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/trpc",
    }

    if isinstance(body, JsonRpcBodyType0):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = []
        for body_type_1_item_data in body:
            body_type_1_item = body_type_1_item_data.to_dict()
            _kwargs["json"].append(body_type_1_item)

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    Any
    | JsonRpcResponse200Type0
    | list[JsonRpcResponse200Type1Item]
    | JsonRpcResponse400
    | JsonRpcResponse401
    | JsonRpcResponse404
    | None
):
    if response.status_code == 200:

        def _parse_response_200(data: object) -> JsonRpcResponse200Type0 | list[JsonRpcResponse200Type1Item]:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                response_200_type_0 = JsonRpcResponse200Type0.from_dict(data)

                return response_200_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            response_200_type_1 = []
            _response_200_type_1 = data
            for response_200_type_1_item_data in _response_200_type_1:
                response_200_type_1_item = JsonRpcResponse200Type1Item.from_dict(response_200_type_1_item_data)

                response_200_type_1.append(response_200_type_1_item)

            return response_200_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

    if response.status_code == 400:
        response_400 = JsonRpcResponse400.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = JsonRpcResponse401.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = JsonRpcResponse404.from_dict(response.json())

        return response_404

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    Any
    | JsonRpcResponse200Type0
    | list[JsonRpcResponse200Type1Item]
    | JsonRpcResponse400
    | JsonRpcResponse401
    | JsonRpcResponse404
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: JsonRpcBodyType0 | list[JsonRpcBodyType1Item] | Unset = UNSET,
) -> Response[
    Any
    | JsonRpcResponse200Type0
    | list[JsonRpcResponse200Type1Item]
    | JsonRpcResponse400
    | JsonRpcResponse401
    | JsonRpcResponse404
]:
    """JSON-RPC 2.0: the procedures as methods, a request or a batch

    Args:
        body (JsonRpcBodyType0 | list[JsonRpcBodyType1Item] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | JsonRpcResponse200Type0 | list[JsonRpcResponse200Type1Item] | JsonRpcResponse400 | JsonRpcResponse401 | JsonRpcResponse404]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: JsonRpcBodyType0 | list[JsonRpcBodyType1Item] | Unset = UNSET,
) -> (
    Any
    | JsonRpcResponse200Type0
    | list[JsonRpcResponse200Type1Item]
    | JsonRpcResponse400
    | JsonRpcResponse401
    | JsonRpcResponse404
    | None
):
    """JSON-RPC 2.0: the procedures as methods, a request or a batch

    Args:
        body (JsonRpcBodyType0 | list[JsonRpcBodyType1Item] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | JsonRpcResponse200Type0 | list[JsonRpcResponse200Type1Item] | JsonRpcResponse400 | JsonRpcResponse401 | JsonRpcResponse404
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: JsonRpcBodyType0 | list[JsonRpcBodyType1Item] | Unset = UNSET,
) -> Response[
    Any
    | JsonRpcResponse200Type0
    | list[JsonRpcResponse200Type1Item]
    | JsonRpcResponse400
    | JsonRpcResponse401
    | JsonRpcResponse404
]:
    """JSON-RPC 2.0: the procedures as methods, a request or a batch

    Args:
        body (JsonRpcBodyType0 | list[JsonRpcBodyType1Item] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | JsonRpcResponse200Type0 | list[JsonRpcResponse200Type1Item] | JsonRpcResponse400 | JsonRpcResponse401 | JsonRpcResponse404]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: JsonRpcBodyType0 | list[JsonRpcBodyType1Item] | Unset = UNSET,
) -> (
    Any
    | JsonRpcResponse200Type0
    | list[JsonRpcResponse200Type1Item]
    | JsonRpcResponse400
    | JsonRpcResponse401
    | JsonRpcResponse404
    | None
):
    """JSON-RPC 2.0: the procedures as methods, a request or a batch

    Args:
        body (JsonRpcBodyType0 | list[JsonRpcBodyType1Item] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | JsonRpcResponse200Type0 | list[JsonRpcResponse200Type1Item] | JsonRpcResponse400 | JsonRpcResponse401 | JsonRpcResponse404
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed

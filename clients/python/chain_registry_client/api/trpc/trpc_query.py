from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.trpc_error import TrpcError
from ...models.trpc_query_batch import TrpcQueryBatch
from ...models.trpc_result import TrpcResult
from ...types import UNSET, Response, Unset


def _get_kwargs(
    procedures: str,
    *,
    batch: TrpcQueryBatch | Unset = UNSET,
    input_: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_batch: str | Unset = UNSET
    if not isinstance(batch, Unset):
        json_batch = batch

    params["batch"] = json_batch

    params["input"] = input_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/trpc/{procedures}".format(
            procedures=quote(str(procedures), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult | None:
    if response.status_code == 200:

        def _parse_response_200(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 207:

        def _parse_response_207(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_207 = _parse_response_207(response.json())

        return response_207

    if response.status_code == 400:

        def _parse_response_400(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_400 = _parse_response_400(response.json())

        return response_400

    if response.status_code == 401:

        def _parse_response_401(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_401 = _parse_response_401(response.json())

        return response_401

    if response.status_code == 403:

        def _parse_response_403(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_403 = _parse_response_403(response.json())

        return response_403

    if response.status_code == 404:

        def _parse_response_404(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_404 = _parse_response_404(response.json())

        return response_404

    if response.status_code == 405:

        def _parse_response_405(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_405 = _parse_response_405(response.json())

        return response_405

    if response.status_code == 413:

        def _parse_response_413(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_413 = _parse_response_413(response.json())

        return response_413

    if response.status_code == 415:

        def _parse_response_415(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_415 = _parse_response_415(response.json())

        return response_415

    if response.status_code == 429:

        def _parse_response_429(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_429 = _parse_response_429(response.json())

        return response_429

    if response.status_code == 503:

        def _parse_response_503(data: object) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_0 = TrpcResult.from_dict(data)

                return componentsschemas_trpc_envelope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_trpc_envelope_type_1 = TrpcError.from_dict(data)

                return componentsschemas_trpc_envelope_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, list):
                raise TypeError()
            componentsschemas_trpc_envelope_type_2 = []
            _componentsschemas_trpc_envelope_type_2 = data
            for componentsschemas_trpc_envelope_type_2_item_data in _componentsschemas_trpc_envelope_type_2:

                def _parse_componentsschemas_trpc_envelope_type_2_item(data: object) -> TrpcError | TrpcResult:
                    try:
                        if not isinstance(data, dict):
                            raise TypeError()
                        componentsschemas_trpc_envelope_type_2_item_type_0 = TrpcResult.from_dict(data)

                        return componentsschemas_trpc_envelope_type_2_item_type_0
                    except (TypeError, ValueError, AttributeError, KeyError):
                        pass
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_trpc_envelope_type_2_item_type_1 = TrpcError.from_dict(data)

                    return componentsschemas_trpc_envelope_type_2_item_type_1

                componentsschemas_trpc_envelope_type_2_item = _parse_componentsschemas_trpc_envelope_type_2_item(
                    componentsschemas_trpc_envelope_type_2_item_data
                )

                componentsschemas_trpc_envelope_type_2.append(componentsschemas_trpc_envelope_type_2_item)

            return componentsschemas_trpc_envelope_type_2

        response_503 = _parse_response_503(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[list[TrpcError | TrpcResult] | TrpcError | TrpcResult]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    procedures: str,
    *,
    client: AuthenticatedClient,
    batch: TrpcQueryBatch | Unset = UNSET,
    input_: str | Unset = UNSET,
) -> Response[list[TrpcError | TrpcResult] | TrpcError | TrpcResult]:
    """tRPC queries (and batches of them)

    Args:
        procedures (str):
        batch (TrpcQueryBatch | Unset):
        input_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[list[TrpcError | TrpcResult] | TrpcError | TrpcResult]
    """

    kwargs = _get_kwargs(
        procedures=procedures,
        batch=batch,
        input_=input_,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    procedures: str,
    *,
    client: AuthenticatedClient,
    batch: TrpcQueryBatch | Unset = UNSET,
    input_: str | Unset = UNSET,
) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult | None:
    """tRPC queries (and batches of them)

    Args:
        procedures (str):
        batch (TrpcQueryBatch | Unset):
        input_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        list[TrpcError | TrpcResult] | TrpcError | TrpcResult
    """

    return sync_detailed(
        procedures=procedures,
        client=client,
        batch=batch,
        input_=input_,
    ).parsed


async def asyncio_detailed(
    procedures: str,
    *,
    client: AuthenticatedClient,
    batch: TrpcQueryBatch | Unset = UNSET,
    input_: str | Unset = UNSET,
) -> Response[list[TrpcError | TrpcResult] | TrpcError | TrpcResult]:
    """tRPC queries (and batches of them)

    Args:
        procedures (str):
        batch (TrpcQueryBatch | Unset):
        input_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[list[TrpcError | TrpcResult] | TrpcError | TrpcResult]
    """

    kwargs = _get_kwargs(
        procedures=procedures,
        batch=batch,
        input_=input_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    procedures: str,
    *,
    client: AuthenticatedClient,
    batch: TrpcQueryBatch | Unset = UNSET,
    input_: str | Unset = UNSET,
) -> list[TrpcError | TrpcResult] | TrpcError | TrpcResult | None:
    """tRPC queries (and batches of them)

    Args:
        procedures (str):
        batch (TrpcQueryBatch | Unset):
        input_ (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        list[TrpcError | TrpcResult] | TrpcError | TrpcResult
    """

    return (
        await asyncio_detailed(
            procedures=procedures,
            client=client,
            batch=batch,
            input_=input_,
        )
    ).parsed

import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.paginated_attestation_list import PaginatedAttestationList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    attester: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    document_hash: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    offchain: bool | Unset = UNSET,
    recipient: str | Unset = UNSET,
    revoked: bool | Unset = UNSET,
    schema_id: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["attester"] = attester

    json_chain_id: list[int] | Unset = UNSET
    if not isinstance(chain_id, Unset):
        json_chain_id = chain_id

    params["chainId"] = json_chain_id

    params["cursor"] = cursor

    params["documentHash"] = document_hash

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    params["limit"] = limit

    params["offchain"] = offchain

    params["recipient"] = recipient

    params["revoked"] = revoked

    params["schemaId"] = schema_id

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/attestations",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedAttestationList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedAttestationList.from_dict(response.json())

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
) -> Response[PaginatedAttestationList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    attester: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    document_hash: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    offchain: bool | Unset = UNSET,
    recipient: str | Unset = UNSET,
    revoked: bool | Unset = UNSET,
    schema_id: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
) -> Response[PaginatedAttestationList | Problem]:
    """List attestations

     EAS attestations on active chains, newest first (by attestation time, then by the
    order of indexing), with an opaque cursor that stays put while new ones arrive;
    `offchain=true` lists the offchain ones submitted here instead.

    Args:
        attester (str | Unset):
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        document_hash (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        offchain (bool | Unset):
        recipient (str | Unset):
        revoked (bool | Unset):
        schema_id (str | Unset):
        to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedAttestationList | Problem]
    """

    kwargs = _get_kwargs(
        attester=attester,
        chain_id=chain_id,
        cursor=cursor,
        document_hash=document_hash,
        from_=from_,
        limit=limit,
        offchain=offchain,
        recipient=recipient,
        revoked=revoked,
        schema_id=schema_id,
        to=to,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    attester: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    document_hash: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    offchain: bool | Unset = UNSET,
    recipient: str | Unset = UNSET,
    revoked: bool | Unset = UNSET,
    schema_id: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
) -> PaginatedAttestationList | Problem | None:
    """List attestations

     EAS attestations on active chains, newest first (by attestation time, then by the
    order of indexing), with an opaque cursor that stays put while new ones arrive;
    `offchain=true` lists the offchain ones submitted here instead.

    Args:
        attester (str | Unset):
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        document_hash (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        offchain (bool | Unset):
        recipient (str | Unset):
        revoked (bool | Unset):
        schema_id (str | Unset):
        to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedAttestationList | Problem
    """

    return sync_detailed(
        client=client,
        attester=attester,
        chain_id=chain_id,
        cursor=cursor,
        document_hash=document_hash,
        from_=from_,
        limit=limit,
        offchain=offchain,
        recipient=recipient,
        revoked=revoked,
        schema_id=schema_id,
        to=to,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    attester: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    document_hash: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    offchain: bool | Unset = UNSET,
    recipient: str | Unset = UNSET,
    revoked: bool | Unset = UNSET,
    schema_id: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
) -> Response[PaginatedAttestationList | Problem]:
    """List attestations

     EAS attestations on active chains, newest first (by attestation time, then by the
    order of indexing), with an opaque cursor that stays put while new ones arrive;
    `offchain=true` lists the offchain ones submitted here instead.

    Args:
        attester (str | Unset):
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        document_hash (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        offchain (bool | Unset):
        recipient (str | Unset):
        revoked (bool | Unset):
        schema_id (str | Unset):
        to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedAttestationList | Problem]
    """

    kwargs = _get_kwargs(
        attester=attester,
        chain_id=chain_id,
        cursor=cursor,
        document_hash=document_hash,
        from_=from_,
        limit=limit,
        offchain=offchain,
        recipient=recipient,
        revoked=revoked,
        schema_id=schema_id,
        to=to,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    attester: str | Unset = UNSET,
    chain_id: list[int] | Unset = UNSET,
    cursor: str | Unset = UNSET,
    document_hash: str | Unset = UNSET,
    from_: datetime.datetime | Unset = UNSET,
    limit: int | Unset = UNSET,
    offchain: bool | Unset = UNSET,
    recipient: str | Unset = UNSET,
    revoked: bool | Unset = UNSET,
    schema_id: str | Unset = UNSET,
    to: datetime.datetime | Unset = UNSET,
) -> PaginatedAttestationList | Problem | None:
    """List attestations

     EAS attestations on active chains, newest first (by attestation time, then by the
    order of indexing), with an opaque cursor that stays put while new ones arrive;
    `offchain=true` lists the offchain ones submitted here instead.

    Args:
        attester (str | Unset):
        chain_id (list[int] | Unset):
        cursor (str | Unset):
        document_hash (str | Unset):
        from_ (datetime.datetime | Unset):
        limit (int | Unset):
        offchain (bool | Unset):
        recipient (str | Unset):
        revoked (bool | Unset):
        schema_id (str | Unset):
        to (datetime.datetime | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedAttestationList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            attester=attester,
            chain_id=chain_id,
            cursor=cursor,
            document_hash=document_hash,
            from_=from_,
            limit=limit,
            offchain=offchain,
            recipient=recipient,
            revoked=revoked,
            schema_id=schema_id,
            to=to,
        )
    ).parsed

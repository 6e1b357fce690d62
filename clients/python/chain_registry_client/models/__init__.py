"""Contains all the data models used in inputs/outputs"""

from .admin_list_api_keys_ordering_item import AdminListApiKeysOrderingItem
from .admin_list_api_keys_scope_item import AdminListApiKeysScopeItem
from .admin_list_categories_ordering_item import AdminListCategoriesOrderingItem
from .admin_list_chains_ordering_item import AdminListChainsOrderingItem
from .admin_list_chains_status_item import AdminListChainsStatusItem
from .admin_list_contract_names_ordering_item import AdminListContractNamesOrderingItem
from .admin_list_contract_versions_ordering_item import AdminListContractVersionsOrderingItem
from .admin_list_deployments_kind_item import AdminListDeploymentsKindItem
from .admin_list_deployments_ordering_item import AdminListDeploymentsOrderingItem
from .admin_list_executors_ordering_item import AdminListExecutorsOrderingItem
from .admin_list_executors_status_item import AdminListExecutorsStatusItem
from .admin_list_issuers_identity_item import AdminListIssuersIdentityItem
from .admin_list_issuers_ordering_item import AdminListIssuersOrderingItem
from .admin_list_provider_health_reports_ordering_item import AdminListProviderHealthReportsOrderingItem
from .admin_list_provider_health_reports_status_item import AdminListProviderHealthReportsStatusItem
from .admin_list_rpc_endpoints_ordering_item import AdminListRpcEndpointsOrderingItem
from .admin_list_rpc_endpoints_probe_status_item import AdminListRpcEndpointsProbeStatusItem
from .admin_list_trusted_attesters_ordering_item import AdminListTrustedAttestersOrderingItem
from .api_key import ApiKey
from .attestation import Attestation
from .attestation_decoded_type_0 import AttestationDecodedType0
from .attester_challenge_request import AttesterChallengeRequest
from .binding_mode_enum import BindingModeEnum
from .blank_enum import BlankEnum
from .category import Category
from .category_request import CategoryRequest
from .chain import Chain
from .chain_finality_enum import ChainFinalityEnum
from .chain_head import ChainHead
from .chain_request import ChainRequest
from .chain_source_enum import ChainSourceEnum
from .chain_status_enum import ChainStatusEnum
from .challenge_request import ChallengeRequest
from .challenge_response import ChallengeResponse
from .contract_name import ContractName
from .contract_name_request import ContractNameRequest
from .contract_version import ContractVersion
from .contract_version_request import ContractVersionRequest
from .delivery import Delivery
from .delivery_attempt import DeliveryAttempt
from .delivery_detail import DeliveryDetail
from .delivery_detail_payload import DeliveryDetailPayload
from .delivery_state_enum import DeliveryStateEnum
from .deployment import Deployment
from .deployment_request import DeploymentRequest
from .document_hash_algorithms_enum import DocumentHashAlgorithmsEnum
from .executor import Executor
from .executor_detail import ExecutorDetail
from .executor_status_enum import ExecutorStatusEnum
from .executor_summary import ExecutorSummary
from .executor_trust_enum import ExecutorTrustEnum
from .get_liveness_response_200 import GetLivenessResponse200
from .get_liveness_response_200_status import GetLivenessResponse200Status
from .get_readiness_response_200 import GetReadinessResponse200
from .get_readiness_response_200_checks import GetReadinessResponse200Checks
from .get_readiness_response_200_checks_additional_property import GetReadinessResponse200ChecksAdditionalProperty
from .get_readiness_response_200_status import GetReadinessResponse200Status
from .get_readiness_response_503 import GetReadinessResponse503
from .get_readiness_response_503_checks import GetReadinessResponse503Checks
from .get_readiness_response_503_checks_additional_property import GetReadinessResponse503ChecksAdditionalProperty
from .heartbeat_request import HeartbeatRequest
from .heartbeat_response import HeartbeatResponse
from .heartbeat_status_enum import HeartbeatStatusEnum
from .identity_check import IdentityCheck
from .identity_enum import IdentityEnum
from .interface import Interface
from .interface_errors_item import InterfaceErrorsItem
from .interface_events_item import InterfaceEventsItem
from .interface_functions_item import InterfaceFunctionsItem
from .issuer import Issuer
from .issuer_address import IssuerAddress
from .issuer_address_proofs_item import IssuerAddressProofsItem
from .issuer_address_proofs_item_method import IssuerAddressProofsItemMethod
from .issuer_address_request import IssuerAddressRequest
from .issuer_request import IssuerRequest
from .job import Job
from .job_batch import JobBatch
from .job_claim_request import JobClaimRequest
from .job_data import JobData
from .job_result_item_request import JobResultItemRequest
from .job_result_request import JobResultRequest
from .job_result_response import JobResultResponse
from .job_results_request import JobResultsRequest
from .job_results_response import JobResultsResponse
from .json_rpc_body_type_0 import JsonRpcBodyType0
from .json_rpc_body_type_0_jsonrpc import JsonRpcBodyType0Jsonrpc
from .json_rpc_body_type_0_method import JsonRpcBodyType0Method
from .json_rpc_body_type_0_params import JsonRpcBodyType0Params
from .json_rpc_body_type_1_item import JsonRpcBodyType1Item
from .json_rpc_response_200_type_0 import JsonRpcResponse200Type0
from .json_rpc_response_200_type_1_item import JsonRpcResponse200Type1Item
from .json_rpc_response_400 import JsonRpcResponse400
from .json_rpc_response_401 import JsonRpcResponse401
from .json_rpc_response_404 import JsonRpcResponse404
from .kind_enum import KindEnum
from .list_chains_ordering_item import ListChainsOrderingItem
from .list_deliveries_event_type import ListDeliveriesEventType
from .list_deliveries_state import ListDeliveriesState
from .list_workflows_state_item import ListWorkflowsStateItem
from .method_enum import MethodEnum
from .monitoring import Monitoring
from .monitoring_request import MonitoringRequest
from .native_currency import NativeCurrency
from .native_currency_request import NativeCurrencyRequest
from .offchain_attestation import OffchainAttestation
from .offchain_attestation_decoded_type_0 import OffchainAttestationDecodedType0
from .offchain_package_request import OffchainPackageRequest
from .offchain_package_request_sig import OffchainPackageRequestSig
from .offchain_revocation import OffchainRevocation
from .override import Override
from .override_status_enum import OverrideStatusEnum
from .paginated_api_key_list import PaginatedApiKeyList
from .paginated_attestation_list import PaginatedAttestationList
from .paginated_category_list import PaginatedCategoryList
from .paginated_chain_list import PaginatedChainList
from .paginated_contract_name_list import PaginatedContractNameList
from .paginated_contract_version_list import PaginatedContractVersionList
from .paginated_delivery_list import PaginatedDeliveryList
from .paginated_deployment_list import PaginatedDeploymentList
from .paginated_executor_list import PaginatedExecutorList
from .paginated_issuer_list import PaginatedIssuerList
from .paginated_offchain_attestation_list import PaginatedOffchainAttestationList
from .paginated_offchain_revocation_list import PaginatedOffchainRevocationList
from .paginated_provider_health_list import PaginatedProviderHealthList
from .paginated_public_chain_list import PaginatedPublicChainList
from .paginated_public_schema_list import PaginatedPublicSchemaList
from .paginated_rpc_endpoint_list import PaginatedRpcEndpointList
from .paginated_subscription_list import PaginatedSubscriptionList
from .paginated_timestamp_list import PaginatedTimestampList
from .paginated_trusted_attester_list import PaginatedTrustedAttesterList
from .paginated_watch_list import PaginatedWatchList
from .paginated_workflow_list import PaginatedWorkflowList
from .patched_api_key_request import PatchedApiKeyRequest
from .patched_category_request import PatchedCategoryRequest
from .patched_chain_request import PatchedChainRequest
from .patched_chain_status_request import PatchedChainStatusRequest
from .patched_contract_name_request import PatchedContractNameRequest
from .patched_contract_version_request import PatchedContractVersionRequest
from .patched_deployment_request import PatchedDeploymentRequest
from .patched_executor_trust_request import PatchedExecutorTrustRequest
from .patched_issuer_request import PatchedIssuerRequest
from .patched_rpc_endpoint_request import PatchedRpcEndpointRequest
from .patched_subscription_request import PatchedSubscriptionRequest
from .patched_trusted_attester_request import PatchedTrustedAttesterRequest
from .patched_trusted_attester_request_proof import PatchedTrustedAttesterRequestProof
from .problem import Problem
from .problem_error import ProblemError
from .provider_health import ProviderHealth
from .provider_health_request import ProviderHealthRequest
from .public_chain import PublicChain
from .public_deployment import PublicDeployment
from .public_schema import PublicSchema
from .public_schema_fields_item import PublicSchemaFieldsItem
from .register_request import RegisterRequest
from .register_request_metadata import RegisterRequestMetadata
from .register_request_proof import RegisterRequestProof
from .rotate_secret_request import RotateSecretRequest
from .rotated_secret import RotatedSecret
from .rpc_endpoint import RpcEndpoint
from .rpc_endpoint_request import RpcEndpointRequest
from .rpc_summary import RpcSummary
from .rpc_summary_status_enum import RpcSummaryStatusEnum
from .schema_check_error import SchemaCheckError
from .schema_field import SchemaField
from .schema_field_components_item import SchemaFieldComponentsItem
from .schema_validate_request import SchemaValidateRequest
from .schema_validate_request_data import SchemaValidateRequestData
from .schema_validate_response import SchemaValidateResponse
from .scope_enum import ScopeEnum
from .stall_reason_enum import StallReasonEnum
from .status_change import StatusChange
from .subscription import Subscription
from .subscription_created import SubscriptionCreated
from .subscription_request import SubscriptionRequest
from .timestamp import Timestamp
from .transfer_request import TransferRequest
from .trpc_error import TrpcError
from .trpc_error_data import TrpcErrorData
from .trpc_error_shape import TrpcErrorShape
from .trpc_mutation_batch import TrpcMutationBatch
from .trpc_mutation_body import TrpcMutationBody
from .trpc_query_batch import TrpcQueryBatch
from .trpc_result import TrpcResult
from .trpc_result_result import TrpcResultResult
from .trust_decision_request import TrustDecisionRequest
from .trust_enum import TrustEnum
from .trusted_attester import TrustedAttester
from .trusted_attester_request import TrustedAttesterRequest
from .trusted_attester_request_proof import TrustedAttesterRequestProof
from .uptime import Uptime
from .verify_batch_request import VerifyBatchRequest
from .verify_batch_response import VerifyBatchResponse
from .verify_batch_result import VerifyBatchResult
from .verify_batch_result_finality_type_0 import VerifyBatchResultFinalityType0
from .verify_batch_result_finality_type_0_rule import VerifyBatchResultFinalityType0Rule
from .verify_batch_result_get_attestation_call_type_0 import VerifyBatchResultGetAttestationCallType0
from .verify_batch_result_issuer_type_0 import VerifyBatchResultIssuerType0
from .verify_batch_result_issuer_type_0_identity import VerifyBatchResultIssuerType0Identity
from .verify_batch_result_issuer_type_0_proofs_item import VerifyBatchResultIssuerType0ProofsItem
from .verify_batch_result_issuer_type_0_proofs_item_method import VerifyBatchResultIssuerType0ProofsItemMethod
from .verify_reason_enum import VerifyReasonEnum
from .verify_request import VerifyRequest
from .verify_response import VerifyResponse
from .verify_response_finality_type_0 import VerifyResponseFinalityType0
from .verify_response_finality_type_0_rule import VerifyResponseFinalityType0Rule
from .verify_response_get_attestation_call_type_0 import VerifyResponseGetAttestationCallType0
from .verify_response_issuer_type_0 import VerifyResponseIssuerType0
from .verify_response_issuer_type_0_identity import VerifyResponseIssuerType0Identity
from .verify_response_issuer_type_0_proofs_item import VerifyResponseIssuerType0ProofsItem
from .verify_response_issuer_type_0_proofs_item_method import VerifyResponseIssuerType0ProofsItemMethod
from .watch import Watch
from .watch_request import WatchRequest
from .webhook_event_type_enum import WebhookEventTypeEnum
from .workflow import Workflow
from .workflow_batch import WorkflowBatch
from .workflow_batch_create_request import WorkflowBatchCreateRequest
from .workflow_batch_item import WorkflowBatchItem
from .workflow_create_request import WorkflowCreateRequest
from .workflow_create_request_data import WorkflowCreateRequestData
from .workflow_detail import WorkflowDetail
from .workflow_state_enum import WorkflowStateEnum
from .workflow_transition import WorkflowTransition

__all__ = (
    "AdminListApiKeysOrderingItem",
    "AdminListApiKeysScopeItem",
    "AdminListCategoriesOrderingItem",
    "AdminListChainsOrderingItem",
    "AdminListChainsStatusItem",
    "AdminListContractNamesOrderingItem",
    "AdminListContractVersionsOrderingItem",
    "AdminListDeploymentsKindItem",
    "AdminListDeploymentsOrderingItem",
    "AdminListExecutorsOrderingItem",
    "AdminListExecutorsStatusItem",
    "AdminListIssuersIdentityItem",
    "AdminListIssuersOrderingItem",
    "AdminListProviderHealthReportsOrderingItem",
    "AdminListProviderHealthReportsStatusItem",
    "AdminListRpcEndpointsOrderingItem",
    "AdminListRpcEndpointsProbeStatusItem",
    "AdminListTrustedAttestersOrderingItem",
    "ApiKey",
    "Attestation",
    "AttestationDecodedType0",
    "AttesterChallengeRequest",
    "BindingModeEnum",
    "BlankEnum",
    "Category",
    "CategoryRequest",
    "Chain",
    "ChainFinalityEnum",
    "ChainHead",
    "ChainRequest",
    "ChainSourceEnum",
    "ChainStatusEnum",
    "ChallengeRequest",
    "ChallengeResponse",
    "ContractName",
    "ContractNameRequest",
    "ContractVersion",
    "ContractVersionRequest",
    "Delivery",
    "DeliveryAttempt",
    "DeliveryDetail",
    "DeliveryDetailPayload",
    "DeliveryStateEnum",
    "Deployment",
    "DeploymentRequest",
    "DocumentHashAlgorithmsEnum",
    "Executor",
    "ExecutorDetail",
    "ExecutorStatusEnum",
    "ExecutorSummary",
    "ExecutorTrustEnum",
    "GetLivenessResponse200",
    "GetLivenessResponse200Status",
    "GetReadinessResponse200",
    "GetReadinessResponse200Checks",
    "GetReadinessResponse200ChecksAdditionalProperty",
    "GetReadinessResponse200Status",
    "GetReadinessResponse503",
    "GetReadinessResponse503Checks",
    "GetReadinessResponse503ChecksAdditionalProperty",
    "HeartbeatRequest",
    "HeartbeatResponse",
    "HeartbeatStatusEnum",
    "IdentityCheck",
    "IdentityEnum",
    "Interface",
    "InterfaceErrorsItem",
    "InterfaceEventsItem",
    "InterfaceFunctionsItem",
    "Issuer",
    "IssuerAddress",
    "IssuerAddressProofsItem",
    "IssuerAddressProofsItemMethod",
    "IssuerAddressRequest",
    "IssuerRequest",
    "Job",
    "JobBatch",
    "JobClaimRequest",
    "JobData",
    "JobResultItemRequest",
    "JobResultRequest",
    "JobResultResponse",
    "JobResultsRequest",
    "JobResultsResponse",
    "JsonRpcBodyType0",
    "JsonRpcBodyType0Jsonrpc",
    "JsonRpcBodyType0Method",
    "JsonRpcBodyType0Params",
    "JsonRpcBodyType1Item",
    "JsonRpcResponse200Type0",
    "JsonRpcResponse200Type1Item",
    "JsonRpcResponse400",
    "JsonRpcResponse401",
    "JsonRpcResponse404",
    "KindEnum",
    "ListChainsOrderingItem",
    "ListDeliveriesEventType",
    "ListDeliveriesState",
    "ListWorkflowsStateItem",
    "MethodEnum",
    "Monitoring",
    "MonitoringRequest",
    "NativeCurrency",
    "NativeCurrencyRequest",
    "OffchainAttestation",
    "OffchainAttestationDecodedType0",
    "OffchainPackageRequest",
    "OffchainPackageRequestSig",
    "OffchainRevocation",
    "Override",
    "OverrideStatusEnum",
    "PaginatedApiKeyList",
    "PaginatedAttestationList",
    "PaginatedCategoryList",
    "PaginatedChainList",
    "PaginatedContractNameList",
    "PaginatedContractVersionList",
    "PaginatedDeliveryList",
    "PaginatedDeploymentList",
    "PaginatedExecutorList",
    "PaginatedIssuerList",
    "PaginatedOffchainAttestationList",
    "PaginatedOffchainRevocationList",
    "PaginatedProviderHealthList",
    "PaginatedPublicChainList",
    "PaginatedPublicSchemaList",
    "PaginatedRpcEndpointList",
    "PaginatedSubscriptionList",
    "PaginatedTimestampList",
    "PaginatedTrustedAttesterList",
    "PaginatedWatchList",
    "PaginatedWorkflowList",
    "PatchedApiKeyRequest",
    "PatchedCategoryRequest",
    "PatchedChainRequest",
    "PatchedChainStatusRequest",
    "PatchedContractNameRequest",
    "PatchedContractVersionRequest",
    "PatchedDeploymentRequest",
    "PatchedExecutorTrustRequest",
    "PatchedIssuerRequest",
    "PatchedRpcEndpointRequest",
    "PatchedSubscriptionRequest",
    "PatchedTrustedAttesterRequest",
    "PatchedTrustedAttesterRequestProof",
    "Problem",
    "ProblemError",
    "ProviderHealth",
    "ProviderHealthRequest",
    "PublicChain",
    "PublicDeployment",
    "PublicSchema",
    "PublicSchemaFieldsItem",
    "RegisterRequest",
    "RegisterRequestMetadata",
    "RegisterRequestProof",
    "RotatedSecret",
    "RotateSecretRequest",
    "RpcEndpoint",
    "RpcEndpointRequest",
    "RpcSummary",
    "RpcSummaryStatusEnum",
    "SchemaCheckError",
    "SchemaField",
    "SchemaFieldComponentsItem",
    "SchemaValidateRequest",
    "SchemaValidateRequestData",
    "SchemaValidateResponse",
    "ScopeEnum",
    "StallReasonEnum",
    "StatusChange",
    "Subscription",
    "SubscriptionCreated",
    "SubscriptionRequest",
    "Timestamp",
    "TransferRequest",
    "TrpcError",
    "TrpcErrorData",
    "TrpcErrorShape",
    "TrpcMutationBatch",
    "TrpcMutationBody",
    "TrpcQueryBatch",
    "TrpcResult",
    "TrpcResultResult",
    "TrustDecisionRequest",
    "TrustedAttester",
    "TrustedAttesterRequest",
    "TrustedAttesterRequestProof",
    "TrustEnum",
    "Uptime",
    "VerifyBatchRequest",
    "VerifyBatchResponse",
    "VerifyBatchResult",
    "VerifyBatchResultFinalityType0",
    "VerifyBatchResultFinalityType0Rule",
    "VerifyBatchResultGetAttestationCallType0",
    "VerifyBatchResultIssuerType0",
    "VerifyBatchResultIssuerType0Identity",
    "VerifyBatchResultIssuerType0ProofsItem",
    "VerifyBatchResultIssuerType0ProofsItemMethod",
    "VerifyReasonEnum",
    "VerifyRequest",
    "VerifyResponse",
    "VerifyResponseFinalityType0",
    "VerifyResponseFinalityType0Rule",
    "VerifyResponseGetAttestationCallType0",
    "VerifyResponseIssuerType0",
    "VerifyResponseIssuerType0Identity",
    "VerifyResponseIssuerType0ProofsItem",
    "VerifyResponseIssuerType0ProofsItemMethod",
    "Watch",
    "WatchRequest",
    "WebhookEventTypeEnum",
    "Workflow",
    "WorkflowBatch",
    "WorkflowBatchCreateRequest",
    "WorkflowBatchItem",
    "WorkflowCreateRequest",
    "WorkflowCreateRequestData",
    "WorkflowDetail",
    "WorkflowStateEnum",
    "WorkflowTransition",
)

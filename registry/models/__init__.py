from registry.models.api_keys import ApiKey, KeyScope
from registry.models.chains import Chain
from registry.models.contracts import Category, ContractName, ContractVersion, Deployment
from registry.models.rpc import ProviderHealth, RpcEndpoint, RpcProbe

__all__ = [
    "ApiKey",
    "Category",
    "Chain",
    "ContractName",
    "ContractVersion",
    "Deployment",
    "KeyScope",
    "ProviderHealth",
    "RpcEndpoint",
    "RpcProbe",
]

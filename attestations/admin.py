"""The Django admin of what the indexer reads: schemas (their document-hash field is the one
thing an administrator sets), attestations (read-only: the chain is their source) and the
index cursors (lag, last run, last error, and "re-index from block")."""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ActionForm
from django.db import transaction
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from attestations.models import Attestation, ChainHead, IndexCursor, Schema
from registry.models import Chain


class ReadOnlyAdmin(admin.ModelAdmin):
    """What the chain says is shown, never edited here."""

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class IndexedChainFilter(admin.SimpleListFilter):
    """By chain, among the chains the indexer reads (those with an index cursor): Django's own
    filter lists every registered chain, 1,940 after an import of chainlist.org."""

    title = "chain"
    parameter_name = "chain__chain_id__exact"  # the link Django's own filter made

    def lookups(self, request, model_admin):
        indexed = Chain.objects.filter(index_cursors__isnull=False).distinct()
        return [(chain.chain_id, str(chain)) for chain in indexed.order_by("chain_id")]

    def queryset(self, request, queryset):
        return queryset.filter(chain_id=self.value()) if self.value() else queryset


class SchemaForm(forms.ModelForm):
    class Meta:
        model = Schema
        fields = ["document_hash_field"]

    def clean_document_hash_field(self):
        name = self.cleaned_data["document_hash_field"].strip()
        if name and name not in self.instance.bytes32_fields():
            choices = ", ".join(self.instance.bytes32_fields()) or "none"
            raise forms.ValidationError(
                f"{name!r} is not a bytes32 field of this schema (its bytes32 fields: "
                f"{choices}).")
        return name


@admin.register(Schema)
class SchemaAdmin(ReadOnlyAdmin):
    form = SchemaForm
    list_display = ["uid", "chain", "schema", "document_hash_field", "attestation_count",
                    "revocable", "block_number"]
    list_filter = [IndexedChainFilter, "revocable"]
    search_fields = ["=uid", "schema"]
    readonly_fields = ["uid", "chain", "deployment", "schema", "raw_schema_hex", "fields",
                       "parse_error", "resolver", "revocable", "registerer",
                       "attestation_count", "tx_hash", "block_number", "block_hash",
                       "log_index", "indexed_at"]
    fields = ["document_hash_field", *readonly_fields]

    @admin.display(description="raw schema (hex, when the schema string is escaped)")
    def raw_schema_hex(self, obj):
        return "" if obj.raw_schema is None else "0x" + bytes(obj.raw_schema).hex()

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            if "document_hash_field" in form.changed_data:
                count = obj.rederive_document_hashes()
                messages.info(request, f"Document hashes of {count} attestation(s) re-derived "
                              f"from {obj.document_hash_field or 'no field'}.")


@admin.register(Attestation)
class AttestationAdmin(ReadOnlyAdmin):
    list_display = ["uid", "chain", "schema_uid", "attester", "document_hash", "time",
                    "is_revoked", "block_number", "confirmations"]
    list_filter = [IndexedChainFilter, "revocable",
                   ("revocation_time", admin.EmptyFieldListFilter)]
    search_fields = ["=uid", "=document_hash", "=attester", "=recipient", "=tx_hash",
                     "=schema_uid"]
    list_select_related = ["chain"]
    show_full_result_count = False  # counting millions of rows per page view is not cheap

    def has_change_permission(self, request, obj=None):
        return False  # the detail page is a view

    def get_queryset(self, request):
        return super().get_queryset(request).with_confirmations()

    @admin.display(boolean=True, description="revoked")
    def is_revoked(self, obj):
        return obj.revoked

    @admin.display(ordering="confirmations")
    def confirmations(self, obj):
        return obj.confirmations


class ReindexForm(ActionForm):
    from_block = forms.IntegerField(min_value=0, required=False,
                                    label="Re-index from block")


@admin.register(IndexCursor)
class IndexCursorAdmin(ReadOnlyAdmin):
    action_form = ReindexForm
    actions = ["reindex_from_block"]
    list_display = ["deployment", "chain", "kind", "next_block", "head_block", "final_block",
                    "lag", "range_size", "last_run_at", "last_success_at", "short_error", "reorgs",
                    "skipped_records", "reindex_from_block"]
    list_filter = [IndexedChainFilter, "deployment__kind"]
    search_fields = ["chain__name", "chain__short_name", "=chain__chain_id",
                     "=deployment__address"]
    list_select_related = ["deployment__contract_version__contract_name", "chain"]
    readonly_fields = ["deployment", "chain", "next_block", "head_block", "final_block", "lag",
                       "range_size", "last_run_at", "last_success_at", "last_error", "last_error_at",
                       "reorgs", "reindex_from_block", "skipped_list", "recent_blocks"]

    @admin.display(description="kind")
    def kind(self, obj):
        return obj.deployment.get_kind_display()

    @admin.display(description="lag (blocks)")
    def lag(self, obj):
        return obj.lag

    @admin.display(description="skipped")
    def skipped_records(self, obj):
        return len(obj.skipped)

    @admin.display(description="skipped records (block, log, transaction, uid: reason)")
    def skipped_list(self, obj):
        return format_html_join(
            mark_safe("<br>"), "{} #{} {} {}: {}",
            ((s["block"], "-" if s["logIndex"] is None else s["logIndex"], s["txHash"],
              s["uid"] or "-", s["reason"])
             for s in reversed(obj.skipped))) or "none"

    @admin.display(description="last error")
    def short_error(self, obj):
        return obj.last_error[:120]

    @admin.action(description="Re-index from block (give the block beside the action)")
    def reindex_from_block(self, request, queryset):
        try:
            block = forms.IntegerField(min_value=0).clean(request.POST.get("from_block"))
        except forms.ValidationError:
            self.message_user(request, "Give the block to re-index from (0 or more).",
                              messages.ERROR)
            return
        # The next run rolls back and re-reads under the chain's lock: no race with a run
        # in progress, and a failure is recorded on the cursor like any other.
        count = queryset.update(reindex_from_block=block)
        self.message_user(request, f"{count} cursor(s) will re-index from block {block} at "
                          "the next indexing run.")


@admin.register(ChainHead)
class ChainHeadAdmin(ReadOnlyAdmin):
    """What the indexer last saw of each chain, and whether it is stalled
    (attestations/finality.py)."""

    list_display = ["chain", "head_block", "head_at", "block_time", "finality_rule",
                    "final_block", "final_at", "stalled_since", "stall_reason"]
    list_filter = ["finality_rule"]
    list_select_related = ["chain"]
    readonly_fields = list_display + ["head_timestamp", "final_lag"]

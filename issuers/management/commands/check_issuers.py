from django.core.management.base import BaseCommand

from issuers.models import Issuer
from issuers.services import due_issuer_ids, issuer_check


class Command(BaseCommand):
    help = ("Check the identity proofs (DNS TXT, did:web) of the issuers that are due, as the "
            "periodic task does, here and now; --all: of every issuer.")

    def add_arguments(self, parser):
        parser.add_argument("--all", action="store_true", help="Every issuer, due or not.")

    def handle(self, *args, all=False, **options):
        ids = (list(Issuer.objects.values_list("pk", flat=True)) if all
               else due_issuer_ids())
        for issuer_id in ids:
            issuer = issuer_check(issuer_id=issuer_id)
            if issuer is not None:
                self.stdout.write(f"{issuer.domain}: {issuer.identity}")
        self.stdout.write(f"{len(ids)} issuer(s) checked.")

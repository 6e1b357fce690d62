from rest_framework.negotiation import DefaultContentNegotiation


class JSONOnlyNegotiation(DefaultContentNegotiation):
    """The API speaks JSON whatever the Accept header says, rather than answering 406."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type

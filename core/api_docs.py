"""The API's browsable docs (`/v1/docs`, Redoc), loading nothing from the internet: the page
and its script are served from here (drf-spectacular-sidecar), without the web fonts of
drf-spectacular's template, and a Content-Security-Policy keeps the browser from fetching
anything else: Redoc's own footer shows the Redocly logo from a CDN, with no setting to
leave it out (the image is then not shown)."""

from drf_spectacular.views import SpectacularRedocView

# Redoc styles itself inline (styled-components), draws icons as data: images and runs its
# search in a worker made from a blob.
CONTENT_SECURITY_POLICY = ("default-src 'self'; style-src 'self' 'unsafe-inline'; "
                           "img-src 'self' data:; worker-src 'self' blob:; object-src 'none'; "
                           "base-uri 'self'; frame-ancestors 'self'")


class RedocView(SpectacularRedocView):
    template_name = "api_docs/redoc.html"

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        return response

"""The probe region form: its name, whether it takes runs, and its reachability check."""

from django import forms
from django.utils.translation import gettext_lazy as _

from incidents.models import ProbeRegion


class ProbeRegionForm(forms.ModelForm):
    """A region as typed in the editor; `save_region` validates and records it."""

    class Meta:
        model = ProbeRegion
        fields = ["name", "active", "reference_url"]
        help_texts = {
            "name": _(
                "Lower-case letters, digits and inner hyphens, as in eu-north. Its workers consume "
                "the queue probes.<name>; renaming a region gives it a new key."
            ),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk and self.instance.is_home:
            # The home region is found by its name (PROBE_HOME_REGION): it keeps it.
            self.fields["name"].disabled = True

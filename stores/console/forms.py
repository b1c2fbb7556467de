"""Forms for the console pages. They shape input only; the services decide and save."""

from __future__ import annotations

from django import forms


class PathFilterForm(forms.Form):
    """The store page's filter: a path prefix (starting with /) or any part of a path."""

    path = forms.CharField(
        required=False,
        max_length=1024,
        label="Path",
        help_text="A folder such as /conventions/, or any part of a path.",
        widget=forms.TextInput(attrs={"placeholder": "/conventions/", "size": 40}),
    )


class DeleteForm(forms.Form):
    """Why a memory is deleted; kept with the deletion's version."""

    reason = forms.CharField(
        required=False,
        max_length=2000,
        label="Reason (optional)",
        help_text="Kept with the deletion, for whoever reads the history later.",
        widget=forms.Textarea(attrs={"rows": 3, "cols": 60}),
    )


class RedactForm(forms.Form):
    """Redaction cannot be undone, so the confirmation page must post confirm=yes."""

    confirm = forms.CharField(required=False, widget=forms.HiddenInput, initial="yes")

    def clean_confirm(self) -> str:
        value = self.cleaned_data["confirm"]
        if value != "yes":
            raise forms.ValidationError("Confirm the redaction: it cannot be undone.")
        return value

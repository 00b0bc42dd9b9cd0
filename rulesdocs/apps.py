from django.apps import AppConfig


class RulesDocsConfig(AppConfig):
    name = "rulesdocs"
    verbose_name = "Rules pages"

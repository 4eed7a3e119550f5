"""The build compiles the gettext catalogues (web/locale/<language>/LC_MESSAGES/messages.po) into the .mo files
the pages and the voice read; everything else about the package is in pyproject.toml."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class CompileCatalogues(build_py):
    def run(self) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for source in sorted(Path(__file__).parent.glob("web/locale/*/LC_MESSAGES/messages.po")):
            with source.open("rb") as po:
                catalogue = read_po(po)
            with source.with_suffix(".mo").open("wb") as mo:
                write_mo(mo, catalogue)
        super().run()


setup(cmdclass={"build_py": CompileCatalogues})

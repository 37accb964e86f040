from legal_rag.cli import main

main()
